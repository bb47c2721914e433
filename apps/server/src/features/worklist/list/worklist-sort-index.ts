// The first entries of a sort index (one per column header but arrival, migrations 0034, 0036), in
// the page's order, which a prefix walk of the list filters (prefixWalkSql, worklist-page-walk.ts).
import { MODALITIES, PRIORITY_TAGS, STUDY_STATUSES, type TModality } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import { GROUP_LED_SORT_COLUMNS, SORT_INDEX_FILTERS, studies } from '../../../db/schema/studies.ts';
import type { TWorklistCriteria } from './worklist-criteria.ts';

/**
 * The columns a prefix walk reads from a sort index (migrations 0034, 0036): the key, the id, the
 * organisation and the filters the index holds (SORT_INDEX_FILTERS, by SQL name).
 */
const SORT_INDEX_COLUMNS = ['id', 'organisation_id', ...SORT_INDEX_FILTERS.map((key) => studies[key].name)];

/**
 * The first `budget` entries of the organisation's sort index of `column` in the page's order, from
 * `startsAt` on when given (prefixStartOf: no entry before it can be in the range, but the few the
 * partial index studies_organisation_updated_before_arrival_idx holds, read apart and merged). An
 * index led by the modality group (GROUP_LED_SORT_COLUMNS) is read one scan per group, merged in the
 * column's order (MergeAppend), so a modality filter reads its groups' entries alone. Every branch is
 * in the statement whatever the filter, one shape for one generic plan: a group the filter leaves out
 * (and the studies of none, under a filter) is skipped by its branch's one-time condition, unread.
 */
export type TSortIndexRead = {
  criteria: TWorklistCriteria;
  column: string;
  order: SQL;
  budget: SQL;
  startsAt: Date | null;
  /** The only groups a group-led index is walked for (groupsHoldingText); null: the filter's. */
  walkedGroups: readonly TModality[] | null;
};

export function sortIndexPrefix(read: TSortIndexRead): SQL {
  const { criteria, column, order, budget, startsAt } = read;
  const walk = sortIndexWalk(read);
  if (startsAt === null) return walk;
  const start = sql`${startsAt.toISOString()}::timestamptz`;
  // The range's studies last updated before it began: updated before they arrived (the partial
  // index's condition, written as it is so PostgreSQL reads that index), entries before the walk's.
  // Read unordered (OFFSET 0), then sorted: in order, PostgreSQL read them from the sort index, every
  // entry before the range's start for none (215 ms).
  const before = sql`select * from (${sortIndexSelect(criteria, column)}
      and "studies"."updated_at" < "studies"."created_at" and "studies"."created_at" >= ${start}
      and "studies"."updated_at" < ${start} offset 0) b ${order} limit ${budget}`;
  return sql`select * from ((${before}) union all (${walk})) studies ${order} limit ${budget}`;
}

/**
 * The select of a sort index's columns within the organisation, and the bounds of the values a filter
 * of the sorted column keeps (sortedColumnBounds).
 */
function sortIndexSelect(criteria: TWorklistCriteria, column: string): SQL {
  const columns = [column, ...SORT_INDEX_COLUMNS.filter((name) => name !== column)];
  return sql`select ${sql.raw(columns.map((name) => `"studies"."${name}"`).join(', '))} from studies
    where "studies"."organisation_id" = ${criteria.scope.organisationId}::uuid${sortedColumnBounds(criteria, column)}`;
}

/**
 * By status under a status tab, or by priority under a priority filter, the walk's entries begin at
 * the first value kept and end at the last (in the enum's order): the bounds lead the index, so the
 * values kept none of are never read. By status descending, every deleted study of all dates came
 * first (a text past them was collected, 400 ms); by priority descending, every untagged study (nulls
 * come first descending, 95 % of the archive), and an admin's CT and X-ray tagged routine or urgent
 * over all dates were collected (14,000 matches, 42-116 ms) after 100,000 entries walked held none.
 */
function sortedColumnBounds(criteria: TWorklistCriteria, column: string): SQL {
  if (column === 'status') {
    const listed = STUDY_STATUSES.filter((status) => criteria.statuses.includes(status));
    if (listed.length === 0) return sql``;
    return sql` and "studies"."status" between ${listed[0]}::study_status and ${listed.at(-1)}::study_status`;
  }
  if (column !== 'priority_tag') return sql``;
  const tags = PRIORITY_TAGS.filter((tag) => criteria.priorityTags.includes(tag));
  if (tags.length === 0) return sql``;
  return sql` and "studies"."priority_tag" between ${tags[0]}::priority_tag and ${tags.at(-1)}::priority_tag`;
}

/** The sort index's first `budget` entries in order, from `startsAt` on (see sortIndexPrefix). */
function sortIndexWalk({ criteria, column, order, budget, startsAt, walkedGroups }: TSortIndexRead): SQL {
  const starts = startsAt
    ? sql` and "studies"."updated_at" >= ${startsAt.toISOString()}::timestamptz`
    : sql``;
  const select = sql`${sortIndexSelect(criteria, column)}${starts}`;
  if (!GROUP_LED_SORT_COLUMNS.includes(column)) return sql`${select} ${order} limit ${budget}`;
  const filtered = criteria.modalities.length > 0;
  const groups = filtered ? criteria.modalities : MODALITIES;
  const kept = `{${groups.filter((group) => walkedGroups?.includes(group) ?? true).join(',')}}`;
  const branches = [
    ...MODALITIES.map(
      (group) => sql`(${select} and "studies"."modality_group" = ${sql.raw(`'${group}'`)}
        and ${sql.raw(`'${group}'`)} = any(${kept}::modality_group[]) ${order} limit ${budget})`,
    ),
    sql`(${select} and "studies"."modality_group" is null and not ${filtered} ${order} limit ${budget})`,
  ];
  return sql`select * from (${sql.join(branches, sql` union all `)}) studies ${order} limit ${budget}`;
}
