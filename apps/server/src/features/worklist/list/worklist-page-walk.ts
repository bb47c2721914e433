// A worklist page read by walking indexes newest first (or oldest first), whatever the total: for the
// filters whose matches are dense in the walked index, so the walk reads about as many index entries
// as the page holds. A staff member's facilities (or a facility filter) are walked one index scan per
// facility (per facility and modality group with a modality filter), merged in created_at order
// (MergeAppend); one assignee (a reporter's own list, a by_user_ids filter) is walked on the
// assignee's index. Other filters keep the page form the total chooses (worklist-list.queries.ts).
import { statusesOfGroup, type TWorklistListQuery } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { facilitiesOf, worklistFilters, worklistWhere, type TWorklistCriteria } from './worklist-criteria.ts';

/** Up to this many index scans are merged (facilities, times modality groups with that filter). */
const MERGED_SCANS_AT_MOST = 32;

/** Statuses every default list shows: a walk over them meets a match in nearly every entry. */
const LISTED = statusesOfGroup('ALL');

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;

/**
 * Whether a walk in created_at order meets a match in nearly every index entry it reads: every
 * listed status (a status tab or a priority filter picks few entries of a walked range: the total
 * decides then), no search, and a scope the walked index holds (not a referrer's referrals).
 */
function denseWalk(criteria: TWorklistCriteria, page: TPage): boolean {
  return (
    page.sort_by === 'created_at' &&
    criteria.searchText === null &&
    criteria.priorityTags.length === 0 &&
    criteria.scope.principal.role !== 'REFERRING_PHYSICIAN' &&
    LISTED.every((status) => criteria.statuses.includes(status))
  );
}

/**
 * The page's ids as `select id … order by … limit … offset …` read by walking, or null when the
 * filters call for the form the total chooses. The merged scans are written one per facility (and
 * modality group) with the facility as the leading equality of its index, so each is an ordered
 * index scan that stops after offset + limit matches: the cost follows the page, not the matches
 * (a radiologist's week of CT and MRI in 5 facilities: ~60 index entries instead of 1,500 sorted).
 */
export function walkedPageIdsSql(db: TDbOrTx, criteria: TWorklistCriteria, page: TPage): SQL | null {
  if (!denseWalk(criteria, page)) return null;
  const direction = page.sort_order === 'asc' ? 'asc' : 'desc';
  const order = sql.raw(`order by "created_at" ${direction}, "id" ${direction}`);
  const limits = sql`limit ${page.limit} offset ${page.offset}`;
  const statuses = criteria.statuses;
  if (criteria.byUserIds.length === 1) {
    const where = worklistWhere(db, criteria, statuses);
    return sql`select "studies"."id" from studies where ${where} ${order} ${limits}`;
  }
  const facilities = facilitiesOf(criteria);
  if (criteria.byUserIds.length > 0 || facilities === null || facilities.length === 0) return null;
  const groups = criteria.modalities.length > 0 ? criteria.modalities : [null];
  if (facilities.length * groups.length > MERGED_SCANS_AT_MOST) return null;
  // The facility (and group) of each scan replace the lists: the other filters are the same.
  const filters = worklistFilters(db, { ...criteria, modalities: [] }, statuses);
  const organisation = sql`"studies"."organisation_id" = ${criteria.scope.organisationId}::uuid`;
  const first = page.offset + page.limit;
  const scans = facilities.flatMap((facilityId) =>
    groups.map((group) => {
      const inGroup =
        group === null ? sql`` : sql` and "studies"."modality_group" = ${group}::modality_group`;
      return sql`(select "studies"."id", "studies"."created_at" from studies
        where ${organisation} and "studies"."facility_id" = ${facilityId}::uuid${inGroup} and ${filters}
        ${order} limit ${first})`;
    }),
  );
  return sql`select w."id" from (${sql.join(scans, sql.raw(' union all '))}) w ${order} ${limits}`;
}
