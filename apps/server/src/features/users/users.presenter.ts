import type { TFacility as TFacilityWire, TUser, TUserDetails } from '@ris/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { facilities, radiologistDetails, userFacilities, users } from '../../db/schema/index.ts';

export type TUserRow = typeof users.$inferSelect;
type TFacilityRow = typeof facilities.$inferSelect;
type TRadiologistRow = typeof radiologistDetails.$inferSelect;

/** What a user's wire shape needs beyond the users row, loaded for many users in two queries. */
export type TUserFacts = { facilityIds: string[]; radiologist: TRadiologistRow | null };

export async function loadUserFacts(db: TDbOrTx, userIds: string[]): Promise<Map<string, TUserFacts>> {
  const facts = new Map<string, TUserFacts>(
    userIds.map((id) => [id, { facilityIds: [], radiologist: null }]),
  );
  if (userIds.length === 0) return facts;
  const [links, details] = await Promise.all([
    // Only facilities of the user's own organisation count, even if a stale link points elsewhere.
    db
      .select({ userId: userFacilities.userId, facilityId: userFacilities.facilityId })
      .from(userFacilities)
      .innerJoin(users, eq(users.id, userFacilities.userId))
      .innerJoin(
        facilities,
        and(
          eq(facilities.id, userFacilities.facilityId),
          eq(facilities.organisationId, users.organisationId),
        ),
      )
      .where(inArray(userFacilities.userId, userIds))
      .orderBy(asc(userFacilities.createdAt), asc(userFacilities.facilityId)),
    db.select().from(radiologistDetails).where(inArray(radiologistDetails.userId, userIds)),
  ]);
  for (const link of links) facts.get(link.userId)?.facilityIds.push(link.facilityId);
  for (const detail of details) {
    const fact = facts.get(detail.userId);
    if (fact) fact.radiologist = detail;
  }
  return facts;
}

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

/** users row → the API's user (spec field names); never includes the password hash. */
export function presentUser(row: TUserRow, facts: TUserFacts): TUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    first_name: row.firstName,
    last_name: row.lastName,
    display_name: row.displayName,
    status: row.status,
    organisation_fk: row.organisationId,
    facility_fks: facts.facilityIds,
    user_type: row.role === 'RADIOLOGIST' ? (facts.radiologist?.userType ?? 'RADIOLOGIST') : null,
    radiologist_description: facts.radiologist?.description ?? null,
    staff_kind: row.staffKind,
    has_signature: row.signatureFileId !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** One user in wire shape, with the facts loaded. */
export async function presentUserRow(db: TDbOrTx, row: TUserRow): Promise<TUser> {
  const facts = (await loadUserFacts(db, [row.id])).get(row.id) ?? { facilityIds: [], radiologist: null };
  return presentUser(row, facts);
}

/**
 * GET /user/details/{id}: the role's details and the facilities the user works in — every facility
 * of the organisation for an admin, the assigned ones otherwise.
 */
export async function presentUserDetails(db: TDbOrTx, row: TUserRow): Promise<TUserDetails> {
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
  };
}
