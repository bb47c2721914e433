import type { TFacility as TFacilityWire, TUser, TUserDetails } from '@ris/domain';
import { asc, eq, inArray } from 'drizzle-orm';
import { loadUserFacts, presentUser, type TUserRow } from '../../auth/present-user.ts';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { facilities } from '../../db/schema/index.ts';
import { userCapabilities } from './user-capabilities.ts';

// The user's wire shape and its facts are written in auth/present-user.ts (sign-in answers them
// too, and auth imports no feature); this presenter adds the details and facilities of the routes.
export { loadUserFacts, presentUser, type TUserFacts, type TUserRow } from '../../auth/present-user.ts';

type TFacilityRow = typeof facilities.$inferSelect;

export function presentFacility(row: TFacilityRow): TFacilityWire {
  return {
    id: row.id,
    organisation_fk: row.organisationId,
    parent_facility_fk: row.parentFacilityId,
    name: row.name,
    code: row.code,
    address: row.address,
    phone: row.phone,
    email: row.email,
    time_zone: row.timeZone,
    status: row.status,
    letterhead_enabled: row.letterheadEnabled,
  };
}

/** One user in wire shape, with the facts loaded. */
export async function presentUserRow(db: TDbOrTx, row: TUserRow): Promise<TUser> {
  const facts = (await loadUserFacts(db, [row.id])).get(row.id) ?? { facilityIds: [], radiologist: null };
  return presentUser(row, facts);
}

/**
 * GET /user/details/{id}: the role's details and the facilities the user works in — every facility
 * of the organisation for an admin, the assigned ones otherwise; on the caller's own details, what
 * they may do at all (capabilities).
 */
export async function presentUserDetails(
  db: TDbOrTx,
  row: TUserRow,
  principal: TPrincipal,
): Promise<TUserDetails> {
  const facts = (await loadUserFacts(db, [row.id])).get(row.id) ?? { facilityIds: [], radiologist: null };
  const facilityRows =
    row.role === 'ADMIN' && row.organisationId
      ? await db
          .select()
          .from(facilities)
          .where(eq(facilities.organisationId, row.organisationId))
          .orderBy(asc(facilities.name))
      : facts.facilityIds.length > 0
        ? await db
            .select()
            .from(facilities)
            .where(inArray(facilities.id, facts.facilityIds))
            .orderBy(asc(facilities.name))
        : [];
  const user = presentUser(row, facts);
  return {
    ...user,
    radiologist_details:
      row.role === 'RADIOLOGIST'
        ? {
            user_type: user.user_type ?? 'RADIOLOGIST',
            facility_fks: facts.facilityIds,
            description: facts.radiologist?.description ?? null,
          }
        : null,
    transcriptionist_details: row.role === 'TRANSCRIPTIONIST' ? { facility_fks: facts.facilityIds } : null,
    facility_details:
      row.role === 'FACILITY_ADMIN'
        ? { facility_fk: facts.facilityIds[0] ?? null, staff_kind: row.staffKind }
        : null,
    facilities: facilityRows.map(presentFacility),
    capabilities: row.id === principal.userId ? userCapabilities(principal) : null,
  };
}
