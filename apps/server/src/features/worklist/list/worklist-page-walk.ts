// A worklist page read by walking indexes newest first (or oldest first), whatever the total: for the
// filters whose matches are dense in the walked index, so the walk reads about as many index entries
// as the page holds. A staff member's facilities (or a facility filter) are walked one index scan per
// facility (per facility and modality group with a modality filter; per facility and status on a
// status tab), merged in created_at order (MergeAppend); assignees (a reporter's own list, a
// by_user_ids filter) one scan of the assignee's index each, merged. Other filters keep the page form
// the total chooses (worklist-list.queries.ts).
import { statusesOfGroup, type TWorklistListQuery } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import {
  dateRangeOn,
  facilitiesOf,
  worklistFilters,
  worklistWhere,
  type TWorklistCriteria,
} from './worklist-criteria.ts';

/** Up to this many index scans are merged (facilities, times modality groups with that filter). */
const MERGED_SCANS_AT_MOST = 32;

/** Statuses every default list shows: a walk over them meets a match in nearly every entry. */
const LISTED = statusesOfGroup('ALL');

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;

/**
 * How a walk in created_at order meets a match in nearly every index entry it reads, if it does:
 * `listed`, every listed status (a default list: the facility or facility and modality group index)
 * or an assignee filter with any statuses (the assignee index); `statuses`, a status tab without modality or assignee filter (the facility and
 * status index, one scan per status: every entry in range is a match). Never with a search or a
 * priority filter (a priority picks few entries of a walked range: the total decides then), nor for
 * a referrer's referrals (no walked index holds them).
 */
function walkKind(criteria: TWorklistCriteria, page: TPage): 'listed' | 'statuses' | null {
  if (
    page.sort_by !== 'created_at' ||
    criteria.searchText !== null ||
    criteria.priorityTags.length > 0 ||
    criteria.scope.principal.role === 'REFERRING_PHYSICIAN'
  ) {
    return null;
  }
  // The assignee index holds the status and modality group: a status tab walks it too, and never
  // reads more than collecting the matches would (the statuses do not lead that index either).
  if (LISTED.every((status) => criteria.statuses.includes(status)) || criteria.byUserIds.length > 0) {
    return 'listed';
  }
  return criteria.modalities.length === 0 && criteria.byUserIds.length === 0 ? 'statuses' : null;
}

/**
 * The page's ids as `select id … order by … limit … offset …` read by walking, or null when the
 * filters call for the form the total chooses. The merged scans are written one per facility (and
 * modality group) with the facility as the leading equality of its index, so each is an ordered
 * index scan that stops after offset + limit matches: the cost follows the page, not the matches
 * (a radiologist's week of CT and MRI in 5 facilities: ~60 index entries instead of 1,500 sorted).
 */
export function walkedPageIdsSql(db: TDbOrTx, criteria: TWorklistCriteria, page: TPage): SQL | null {
  const kind = walkKind(criteria, page);
  if (kind === null) return null;
  const direction = page.sort_order === 'asc' ? 'asc' : 'desc';
  const order = sql.raw(`order by "created_at" ${direction}, "id" ${direction}`);
  const limits = sql`limit ${page.limit} offset ${page.offset}`;
  const statuses = criteria.statuses;
  const first = page.offset + page.limit;
  const merged = (scans: SQL[]) =>
    sql`select w."id" from (${sql.join(scans, sql.raw(' union all '))}) w ${order} ${limits}`;
  if (criteria.byUserIds.length > 0) {
    // One scan of the assignee index per assignee, within the caller's visibility and filters.
    if (criteria.byUserIds.length > MERGED_SCANS_AT_MOST) return null;
    return merged(
      criteria.byUserIds.map((userId) => {
        const where = worklistWhere(db, { ...criteria, byUserIds: [userId] }, statuses);
        return sql`(select "studies"."id", "studies"."created_at" from studies where ${where} ${order} limit ${first})`;
      }),
    );
  }
  const facilities = facilitiesOf(criteria);
  if (facilities === null || facilities.length === 0) return null;
  // Each scan's equalities (facility, and modality group or status) lead its index; the other filters
  // are the same for every scan.
  const keys =
    kind === 'statuses'
      ? statuses.map((status) => sql` and "studies"."status" = ${status}::study_status`)
      : criteria.modalities.length > 0
        ? criteria.modalities.map((group) => sql` and "studies"."modality_group" = ${group}::modality_group`)
        : [sql``];
  if (facilities.length * keys.length > MERGED_SCANS_AT_MOST) return null;
  const filters =
    kind === 'statuses'
      ? sql.join([sql`true`, ...dateRangeOn('"studies"."created_at"', criteria)], sql.raw(' and '))
      : worklistFilters(db, { ...criteria, modalities: [] }, statuses);
  const organisation = sql`"studies"."organisation_id" = ${criteria.scope.organisationId}::uuid`;
  return merged(
    facilities.flatMap((facilityId) =>
      keys.map(
        (key) => sql`(select "studies"."id", "studies"."created_at" from studies
          where ${organisation} and "studies"."facility_id" = ${facilityId}::uuid${key} and ${filters}
          ${order} limit ${first})`,
      ),
    ),
  );
}
