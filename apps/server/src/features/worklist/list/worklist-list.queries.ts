import {
  paginate,
  STATUS_GROUPS,
  statusesOfGroup,
  STUDY_STATUSES,
  type TStudyStatus,
  type TWorklistListQuery,
  type TWorklistListResponse,
  type TWorklistSortField,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { asc, count, desc, eq, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { facilities, studies, users } from '../../../db/schema/index.ts';
import { presentWorklistRows, worklistItemColumns } from '../worklist.presenter.ts';
import { worklistWhere, type TWorklistCriteria } from './worklist-criteria.ts';

/** The column behind each sort_by value (the whitelist is WORKLIST_SORT_FIELDS). */
const SORT_COLUMNS = {
  created_at: studies.createdAt,
  updated_at: studies.updatedAt,
  datetime: studies.studyDatetime,
  patient_name: studies.patientName,
  patient_id: studies.patientIdentifier,
  modality: studies.modality,
  study: studies.studyDescription,
  status: studies.status,
  priority_tag: studies.priorityTag,
  series_count: studies.seriesCount,
} satisfies Record<TWorklistSortField, unknown>;

/**
 * One page of the worklist and the total, in one statement: the count is an uncorrelated scalar
 * subquery (run once, index-only where the indexes allow). Ties (and nulls: first when descending,
 * last when ascending, PostgreSQL's default) are broken by id in the same direction, so pages never
 * overlap. A page past the end has no row to carry the total, so it is counted on its own.
 */
export async function listWorklist(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
  query: Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>,
): Promise<TWorklistListResponse> {
  const where = worklistWhere(db, criteria, criteria.statuses);
  const direction = query.sort_order === 'asc' ? asc : desc;
  const rows = await db
    .select({
      ...worklistItemColumns,
      total: sql<number>`(select count(*) from ${studies} where ${where})`.mapWith(Number),
    })
    .from(studies)
    .innerJoin(facilities, eq(facilities.id, studies.facilityId))
    .leftJoin(users, eq(users.id, studies.lastAssignedUserId))
    .where(where)
    .orderBy(direction(SORT_COLUMNS[query.sort_by]), direction(studies.id))
    .limit(query.limit)
    .offset(query.offset);
  let total = rows[0]?.total;
  if (total === undefined) {
    const [counted] = query.offset > 0 ? await db.select({ total: count() }).from(studies).where(where) : [];
    total = counted?.total ?? 0;
  }
  return { items: await presentWorklistRows(db, rows), ...paginate(total, query.limit, query.offset) };
}

/**
 * Counts per status and per display group under every filter except `statuses` (the tabs show how
 * many items each would list with the other filters as they are). ALL is the sum of the three tabs;
 * DELETED is in no tab and is counted for admins only (0 for everyone else).
 */
export async function countWorklistStatuses(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
): Promise<TWorklistStatusCounts> {
  const rows = await db
    .select({ status: studies.status, count: count() })
    .from(studies)
    .where(worklistWhere(db, criteria, criteria.countedStatuses))
    .groupBy(studies.status);
  const perStatus = Object.fromEntries(STUDY_STATUSES.map((status) => [status, 0])) as Record<
    TStudyStatus,
    number
  >;
  for (const row of rows) perStatus[row.status] = row.count;
  const sumOf = (statuses: readonly TStudyStatus[]) =>
    statuses.reduce((sum, status) => sum + perStatus[status], 0);
  const groups = Object.fromEntries(
    STATUS_GROUPS.map((group) => [group, sumOf(statusesOfGroup(group))]),
  ) as TWorklistStatusCounts['groups'];
  return { statuses: perStatus, groups };
}
