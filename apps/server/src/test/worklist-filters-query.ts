// Worklist filters as the rollup tests state them (a custom range, in UTC or in Asia/Kolkata's
// dates): as the API's query string, and counted straight from `studies` (count(*)), for the tests
// that compare the two.
import { STUDY_STATUSES } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';

export type TWorklistTestFilters = {
  from?: string;
  to?: string;
  byUserIds?: string[];
  facilityIds?: string[];
  modalities?: string[];
  priorityTags?: string[];
  /** start_date and end_date are dates in Asia/Kolkata. */
  zoneDates?: boolean;
};

export function worklistFiltersQuery(filters: TWorklistTestFilters): string {
  const params = new URLSearchParams({ date_range_type: 'CUSTOM' });
  if (filters.zoneDates) params.set('time_zone', 'Asia/Kolkata');
  if (filters.from) params.set('start_date', filters.from);
  if (filters.to) params.set('end_date', filters.to);
  for (const id of filters.byUserIds ?? []) params.append('by_user_ids', id);
  for (const id of filters.facilityIds ?? []) params.append('facility_ids', id);
  for (const modality of filters.modalities ?? []) params.append('modalities', modality);
  for (const tag of filters.priorityTags ?? []) params.append('priority_tags', tag);
  return params.toString();
}

/**
 * count(*) per status straight from `studies` under the filters (what the rollups must reproduce):
 * the organisation's studies, within `visible` facilities (null: all), assigned to one of
 * `assignees` (null: anyone).
 */
export async function countedDirectly(
  db: TDbOrTx,
  scope: { organisationId: string; visible: string[] | null; assignees: string[] | null },
  filters: TWorklistTestFilters,
): Promise<Record<string, number>> {
  const list = (values: readonly string[]) => `{${values.join(',')}}`;
  const conditions = [sql`organisation_id = ${scope.organisationId}::uuid`];
  if (scope.assignees) conditions.push(sql`last_assigned_user_id = any(${list(scope.assignees)}::uuid[])`);
  if (scope.visible) conditions.push(sql`facility_id = any(${list(scope.visible)}::uuid[])`);
  if (filters.facilityIds) conditions.push(sql`facility_id = any(${list(filters.facilityIds)}::uuid[])`);
  if (filters.modalities)
    conditions.push(sql`modality_group::text = any(${list(filters.modalities)}::text[])`);
  if (filters.priorityTags)
    conditions.push(sql`priority_tag::text = any(${list(filters.priorityTags)}::text[])`);
  if (filters.zoneDates) {
    // Whole dates in Asia/Kolkata: from the first date's midnight to the day after the last one's.
    if (filters.from)
      conditions.push(sql`created_at >= (${filters.from}::date)::timestamp at time zone 'Asia/Kolkata'`);
    if (filters.to)
      conditions.push(sql`created_at < (${filters.to}::date + 1)::timestamp at time zone 'Asia/Kolkata'`);
  } else {
    if (filters.from) conditions.push(sql`created_at >= ${filters.from}::timestamptz`);
    if (filters.to) conditions.push(sql`created_at <= ${filters.to}::timestamptz`);
  }
  const rows = await queryRows<{ status: string; count: number }>(
    db,
    sql`select status::text as status, count(*)::int as count from studies where ${sql.join(conditions, sql` and `)} group by 1`,
  );
  return Object.fromEntries(
    STUDY_STATUSES.map((status) => [status, rows.find((row) => row.status === status)?.count ?? 0]),
  );
}
