import { and, eq, exists, or, sql, type SQL } from 'drizzle-orm';
import type { TPrincipal } from '../../auth/principal.ts';
import { assignedFacilityIds } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { userFacilities, users } from '../../db/schema/index.ts';
import type { TUserRow } from './users.presenter.ts';

export type TUserKey = { id: string } | { email: string };

function keyCondition(key: TUserKey): SQL {
  return 'id' in key ? eq(users.id, key.id) : sql`lower(${users.email}) = lower(${key.email})`;
}

/**
 * Which users a caller can see, as one SQL condition:
 * - themselves, always (the client's verification fetches its own user even before it has an
 *   organisation);
 * - an admin: every user of the organisation;
 * - other staff: users of their organisation who share a facility with them, and its admins;
 * - a referring physician: only themselves.
 */
async function visibility(db: TDbOrTx, principal: TPrincipal): Promise<SQL> {
  const self = eq(users.id, principal.userId);
  const organisationId = principal.organisationId;
  if (!organisationId || !principal.role || principal.role === 'REFERRING_PHYSICIAN') return self;
  const sameOrganisation = eq(users.organisationId, organisationId);
  if (principal.role === 'ADMIN') return or(self, sameOrganisation) ?? self;
  const mine = await assignedFacilityIds(db, principal.userId, organisationId);
  const sharesFacility =
    mine.length > 0
      ? exists(
          db
            .select({ one: sql`1` })
            .from(userFacilities)
            .where(
              and(
                eq(userFacilities.userId, users.id),
                sql`${userFacilities.facilityId} IN (${sql.join(
                  mine.map((id) => sql`${id}::uuid`),
                  sql`, `,
                )})`,
              ),
            ),
        )
      : sql`false`;
  return or(self, and(sameOrganisation, or(eq(users.role, 'ADMIN'), sharesFacility))) ?? self;
}

/** The user the caller asked for, or null when it does not exist or is outside their view. */
export async function findVisibleUser(
  db: TDbOrTx,
  principal: TPrincipal,
  key: TUserKey,
): Promise<TUserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(keyCondition(key), await visibility(db, principal)))
    .limit(1);
  return row ?? null;
}
