import type { TPatient } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';
import type { patients } from '../../db/schema/index.ts';
import { patientAbilities } from './patients.policy.ts';

export type TPatientRow = typeof patients.$inferSelect;

/** A patient row as the caller receives it, with what they may do with it. */
export function presentPatient(row: TPatientRow, principal: TPrincipal): TPatient {
  return {
    id: row.id,
    facility_fk: row.facilityId,
    patient_id: row.patientIdentifier,
    name: row.name,
    sex: row.sex,
    birth_date: row.birthDate,
    phone: row.phone,
    email: row.email,
    merged_into_fk: row.mergedIntoId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    abilities: patientAbilities(principal, row),
  };
}
