import { inArray, sql } from 'drizzle-orm';
import type { TPrincipal } from '../auth/principal.ts';
import type { TDbOrTx } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import { AppError } from '../http/app-error.ts';

/**
 * What a caller may see, resolved on each request: the organisation, and the facilities within it.
 * A staff member's facility list comes from the verifier's cache of the user, which every replica
 * drops when the assignment changes (publishUserChange, and the NOTIFY of user_facilities' trigger),
 * else from the database; so a change of assignment applies at once. Every query of a scoped record
 * filters by these in SQL; a record outside them answers 404.
 */
export type TScope = {
  principal: TPrincipal;
  organisationId: string;
  /** True for admins: every facility of the organisation, including ones added later. */
  allFacilities: boolean;
  /** The facilities the caller works in (for admins: every facility of the organisation). */
  facilityIds: string[];
};

/** The facilities a user is assigned to (user_facilities), within their organisation. */
export async function assignedFacilityIds(
  db: TDbOrTx,
  userId: string,
  organisationId: string,
): Promise<string[]> {
  // Raw SQL: loadScope runs on every scoped request, and Drizzle's builder cost more than the query.
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select uf.facility_id as id from user_facilities uf join facilities f on f.id = uf.facility_id
      where uf.user_id = ${userId} and f.organisation_id = ${organisationId}`,
  );
  return rows.map((row) => row.id);
}

/**
 * Resolves the caller's scope. A user without an organisation or role has none (403). `fresh` reads
 * the facility list from the database even when the verifier's cache holds it (for work done once
 * per change notice, which may arrive before the cache has heard of the change).
 */
export async function loadScope(
  db: TDbOrTx,
  principal: TPrincipal,
  options: { fresh?: boolean } = {},
): Promise<TScope> {
  const organisationId = principal.organisationId;
  if (!organisationId || !principal.role) {
    throw new AppError('FORBIDDEN', 'The user is not assigned to any organisation');
  }
  if (principal.role === 'ADMIN') {
    const rows = await queryRows<{ id: string }>(
      db,
      sql`select id from facilities where organisation_id = ${organisationId}`,
    );
    return { principal, organisationId, allFacilities: true, facilityIds: rows.map((row) => row.id) };
  }
  const cached =
    principal.assignedFacilityIds && !options.fresh ? await principal.assignedFacilityIds() : null;
  return {
    principal,
    organisationId,
    allFacilities: false,
    facilityIds: cached ? [...cached] : await assignedFacilityIds(db, principal.userId, organisationId),
  };
}

/** True when the scope covers at least one of the given facilities. */
export function scopeCoversAny(scope: TScope, facilityIds: readonly string[]): boolean {
  return scope.allFacilities || facilityIds.some((id) => scope.facilityIds.includes(id));
}

/** SQL condition: the facility column is one of the caller's facilities (false for an empty scope). */
export function inScopeFacilities(scope: TScope, column: Parameters<typeof inArray>[0]) {
  return inArray(
    column,
    scope.facilityIds.length > 0 ? scope.facilityIds : ['00000000-0000-0000-0000-000000000000'],
  );
}
