import type { TReferringPhysician, TReferringPhysicianSignIn } from '@ris/domain';
import type { TScope } from '../../access/scope.ts';
import type { referringPhysicians } from '../../db/schema/index.ts';
import { referringPhysicianAbilities, type TPhysicianFacts } from './referring-physicians.policy.ts';

/** A physician row with what its presentation needs besides: its facilities and its account's state. */
export type TPhysicianRow = {
  physician: typeof referringPhysicians.$inferSelect;
  facilityIds: string[];
  account: { status: 'ACTIVE' | 'INACTIVE'; hasPassword: boolean } | null;
};

/** Whether the physician can sign in (ZReferringPhysician.sign_in), from their linked account. */
export function signInOf(account: TPhysicianRow['account']): TReferringPhysicianSignIn {
  if (!account) return 'NOT_INVITED';
  if (account.status !== 'ACTIVE') return 'DISABLED';
  return account.hasPassword ? 'ACTIVE' : 'INVITED';
}

export function physicianFacts(row: TPhysicianRow): TPhysicianFacts {
  return {
    facilityIds: row.facilityIds,
    email: row.physician.email,
    status: row.physician.status,
    signIn: signInOf(row.account),
  };
}

export function presentReferringPhysician(row: TPhysicianRow, scope: TScope): TReferringPhysician {
  const p = row.physician;
  const facts = physicianFacts(row);
  return {
    id: p.id,
    organisation_fk: p.organisationId,
    user_fk: p.userId,
    name: p.name,
    email: p.email,
    phone: p.phone,
    registration_number: p.registrationNumber,
    status: p.status,
    facility_fks: row.facilityIds,
    sign_in: facts.signIn,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
    abilities: referringPhysicianAbilities(scope, facts),
  };
}
