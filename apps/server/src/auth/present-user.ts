import type { TRadiologistUserType, TUser } from '@ris/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { facilities, radiologistDetails, userFacilities, users } from '../db/schema/index.ts';

// The wire shape of a user lives here, below the features: sign-in answers it (ZSessionResponse's
// `user`) and the users feature re-exports it for its routes, so auth imports no feature.

export type TUserRow = typeof users.$inferSelect;
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

/** A user with what ID tokens and the wire shape need beyond the users row. */
export type TUserProfile = {
  user: TUserRow;
  facts: TUserFacts;
  facilityIds: string[];
  userType: TRadiologistUserType | null;
};

/** Loads the facts of one user, shaped for token claims. */
export async function loadUserProfile(db: TDbOrTx, user: TUserRow): Promise<TUserProfile> {
  const facts = (await loadUserFacts(db, [user.id])).get(user.id) ?? { facilityIds: [], radiologist: null };
  const wire = presentUser(user, facts);
  return { user, facts, facilityIds: facts.facilityIds, userType: wire.user_type };
}

/** The wire shape of a profile (ZUser); one presenter serves sign-in and the user routes. */
export function userToWire(profile: TUserProfile): TUser {
  return presentUser(profile.user, profile.facts);
}
