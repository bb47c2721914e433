// Users as user administration sends them (ZManagedUser, ZUserPickerItem): the user's wire shape
// (auth/present-user.ts) with the details of their role and the caller's abilities on them.
import { userSignaturePath, type TManagedUser, type TUserPickerItem } from '@ris/domain';
import type { TScope } from '../../access/scope.ts';
import { loadUserFacts, presentUser, type TUserFacts } from '../../auth/present-user.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { managedUserAbilities } from './users.policy.ts';
import type { TUserRow } from './users.presenter.ts';

const NO_FACTS: TUserFacts = { facilityIds: [], radiologist: null };

function presentManagedUser(scope: TScope, row: TUserRow, facts: TUserFacts): TManagedUser {
  const user = presentUser(row, facts);
  const radiologist = row.role === 'RADIOLOGIST';
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    first_name: user.first_name,
    last_name: user.last_name,
    display_name: user.display_name,
    status: user.status,
    organisation_fk: user.organisation_fk,
    facility_fks: user.facility_fks,
    user_type: user.user_type,
    radiologist_description: radiologist ? user.radiologist_description : null,
    radiologist_details: radiologist
      ? {
          user_type: user.user_type ?? 'RADIOLOGIST',
          facility_fks: facts.facilityIds,
          description: user.radiologist_description,
        }
      : null,
    transcriptionist_details: row.role === 'TRANSCRIPTIONIST' ? { facility_fks: facts.facilityIds } : null,
    facility_details:
      row.role === 'FACILITY_ADMIN'
        ? { facility_fk: facts.facilityIds[0] ?? null, staff_kind: row.staffKind }
        : null,
    signature_url: row.signatureFileId ? userSignaturePath(row.id) : null,
    invitation_pending: row.passwordHash === null,
    last_sign_in_at: row.lastSignInAt?.toISOString() ?? null,
    created_at: user.created_at,
    updated_at: user.updated_at,
    abilities: managedUserAbilities(scope, { row, facilityIds: facts.facilityIds }),
  };
}

/** Users in ZManagedUser shape, their facts loaded in two queries for the whole page. */
export async function presentManagedUsers(
  db: TDbOrTx,
  scope: TScope,
  rows: readonly TUserRow[],
): Promise<TManagedUser[]> {
  const facts = await loadUserFacts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => presentManagedUser(scope, row, facts.get(row.id) ?? NO_FACTS));
}

export async function presentManagedUserRow(
  db: TDbOrTx,
  scope: TScope,
  row: TUserRow,
): Promise<TManagedUser> {
  const [user] = await presentManagedUsers(db, scope, [row]);
  if (!user) throw new Error('presenting one user gave none');
  return user;
}

/** GET /user/all: the short form for pickers. */
export async function presentPickerItems(db: TDbOrTx, rows: readonly TUserRow[]): Promise<TUserPickerItem[]> {
  const facts = await loadUserFacts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const user = presentUser(row, facts.get(row.id) ?? NO_FACTS);
    return {
      id: user.id,
      display_name: user.display_name,
      role: user.role,
      user_type: user.user_type,
      facility_fks: user.facility_fks,
    };
  });
}
