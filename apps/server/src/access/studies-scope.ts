// Which studies (worklist items) a caller may see: the one condition every study query is scoped
// by, and the one rule about deleted studies. Everything that loads a study, a report or a study's
// topic asks here.
import { isReporter } from '@ris/domain';
import { ne, sql, type SQL } from 'drizzle-orm';
import type { TPrincipal } from '../auth/principal.ts';
import type { TDbOrTx } from '../db/client.ts';
import { oneOf } from '../db/one-of.ts';
import { queryRows } from '../db/rows.ts';
import { studies } from '../db/schema/index.ts';
import type { TScope } from './scope.ts';

/** Matches no facility: a staff member without facilities sees nothing. */
const NO_FACILITY = '00000000-0000-0000-0000-000000000000';

/**
 * The studies a caller may see, as one SQL condition on the `studies` table for the WHERE clause of
 * every study query: always within the caller's organisation; staff within their facilities (admins:
 * all of the organisation's); a referring physician only the studies they referred, in any facility.
 * Written as SQL text with one parameter per value: the worklist's hot queries use it too, and
 * building it from Drizzle's column operators cost ~60 µs a request.
 */
export function visibleStudies(scope: TScope): SQL {
  const sameOrganisation = sql`"studies"."organisation_id" = ${scope.organisationId}::uuid`;
  if (scope.principal.role === 'REFERRING_PHYSICIAN') {
    return sql`${sameOrganisation} and exists (select 1 from "referring_physicians"
      where "referring_physicians"."id" = "studies"."referring_physician_id"
      and "referring_physicians"."user_id" = ${scope.principal.userId}::uuid)`;
  }
  const facilities = facilityScopeOn('"studies"."facility_id"', scope);
  return facilities ? sql`${sameOrganisation} and ${facilities}` : sameOrganisation;
}

/**
 * The caller's facilities as a condition on a column holding a study's facility (studies.facility_id,
 * or the reports' copy of it), null for organisation-wide callers. Not a referring physician's
 * visibility, which is by referral (visibleStudies).
 */
export function facilityScopeOn(column: string, scope: TScope): SQL | null {
  if (scope.allFacilities) return null;
  return oneOf(column, scope.facilityIds.length > 0 ? scope.facilityIds : [NO_FACILITY], 'uuid');
}

/** Whether the caller may see the study with this id (deleted or not: see deletedStudyHidden). */
export async function isStudyVisible(db: TDbOrTx, scope: TScope, studyId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from studies where "studies"."id" = ${studyId}::uuid and ${visibleStudies(scope)} limit 1`,
  );
  return rows.length > 0;
}

/** Deleted studies are seen (listed, counted, opened) by admins only. */
export function seesDeletedStudies(principal: TPrincipal): boolean {
  return principal.role === 'ADMIN';
}

/**
 * A deleted study is visible to admins only: for anyone else it answers 404, as a study outside
 * their scope does. Applied after loading a study through visibleStudies.
 */
export function deletedStudyHidden(principal: TPrincipal, study: { status: string }): boolean {
  return study.status === 'DELETED' && !seesDeletedStudies(principal);
}

/** deletedStudyHidden as a SQL condition on `studies` (none for admins). */
export function hideDeletedStudies(principal: TPrincipal): SQL | undefined {
  return seesDeletedStudies(principal) ? undefined : ne(studies.status, 'DELETED');
}

/**
 * by_user_ids of worklist and status-count queries: a reporter's own id is always added (spec §6),
 * whatever the client sent; other callers' filters are used as given.
 */
export function effectiveByUserIds(principal: TPrincipal, byUserIds: readonly string[] = []): string[] {
  const ids = [...new Set(byUserIds)];
  if (isReporter(principal.role, principal.userType) && !ids.includes(principal.userId))
    ids.push(principal.userId);
  return ids;
}

/** Referring physicians read a study's report only once it is FINAL; staff who see the study read it. */
export function mayReadReportOf(principal: TPrincipal, study: { status: string }): boolean {
  return principal.role !== 'REFERRING_PHYSICIAN' || study.status === 'FINAL';
}
