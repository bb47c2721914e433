import type { ZUserListQuery } from '@ris/domain';
import { and, asc, eq, exists, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { TPrincipal } from '../../auth/principal.ts';
import { assignedFacilityIds, type TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { userFacilities, users } from '../../db/schema/index.ts';
import { containsFolded, folded } from '../../db/text-search.ts';
import type { z } from 'zod';
import type { TManagedTarget } from './users.policy.ts';
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

/** The user is assigned to at least one of these facilities (a non-empty list). */
function assignedToAny(facilityIds: readonly string[]): SQL {
  return sql`exists (select 1 from ${userFacilities} where ${userFacilities.userId} = ${users.id} and ${inArray(
    userFacilities.facilityId,
    [...facilityIds],
  )})`;
}

/**
 * The users a caller sees in user administration, as one SQL condition: an admin every user of the
 * organisation; a facility admin themselves and the users of the organisation assigned to one of
 * their facilities. (Which of them the caller may change is the policy's: canManageUser.)
 */
export function administeredUsers(scope: TScope): SQL {
  const sameOrganisation = eq(users.organisationId, scope.organisationId);
  if (scope.allFacilities) return sameOrganisation;
  const ofMyFacilities = scope.facilityIds.length > 0 ? assignedToAny(scope.facilityIds) : sql`false`;
  return and(sameOrganisation, or(eq(users.id, scope.principal.userId), ofMyFacilities)) ?? sameOrganisation;
}

/** The user (by id or e-mail, case-insensitively) if administered by the caller, optionally locked. */
export async function findAdministeredUser(
  db: TDbOrTx,
  scope: TScope,
  key: TUserKey,
  options: { lock?: boolean } = {},
): Promise<TManagedTarget | null> {
  const query = db
    .select()
    .from(users)
    .where(and(keyCondition(key), administeredUsers(scope)))
    .limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) return null;
  return { row, facilityIds: await facilityIdsOf(db, row) };
}

/** A user row by id, unscoped: for presenting what a command has just written. */
export async function findUserRow(db: TDbOrTx, id: string): Promise<TUserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/** A user's facilities within their organisation (as the presenter and the verifier count them). */
export async function facilityIdsOf(db: TDbOrTx, row: TUserRow): Promise<string[]> {
  return row.organisationId ? assignedFacilityIds(db, row.id, row.organisationId) : [];
}

type TUserListFilter = Omit<z.infer<typeof ZUserListQuery>, 'limit' | 'offset'>;

function listConditions(scope: TScope, filter: TUserListFilter): SQL[] {
  const conditions = [administeredUsers(scope)];
  const search = filter.search?.trim();
  if (search) {
    conditions.push(
      containsFolded(
        folded(
          sql`${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.displayName} || ' ' || ${users.email}`,
        ),
        search,
      ),
    );
  }
  if (filter.role) conditions.push(eq(users.role, filter.role));
  if (filter.status) conditions.push(eq(users.status, filter.status));
  if (filter.facility_ids && filter.facility_ids.length > 0) {
    conditions.push(assignedToAny(filter.facility_ids));
  }
  return conditions;
}

/** GET /user: one page of the administered users matching the filters, by name, and their count. */
export async function listAdministeredUsers(
  db: TDbOrTx,
  scope: TScope,
  query: TUserListFilter & { limit: number; offset: number },
): Promise<{ rows: TUserRow[]; total: number }> {
  const where = and(...listConditions(scope, query));
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(sql`lower(${users.displayName})`), asc(users.email), asc(users.id))
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(users)
      .where(where),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}

/** GET /user/all/{organisation id}: every active administered user, by name. */
export async function listActiveAdministeredUsers(db: TDbOrTx, scope: TScope): Promise<TUserRow[]> {
  return db
    .select()
    .from(users)
    .where(and(administeredUsers(scope), eq(users.status, 'ACTIVE')))
    .orderBy(asc(sql`lower(${users.displayName})`), asc(users.id));
}
