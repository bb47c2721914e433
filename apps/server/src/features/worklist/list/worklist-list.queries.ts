import {
  paginate,
  STATUS_GROUPS,
  statusesOfGroup,
  STUDY_STATUSES,
  type TStudyStatus,
  type TWorklistListQuery,
  type TWorklistSortField,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';
import { worklistWhere, type TWorklistCriteria } from './worklist-criteria.ts';

/** The column behind each sort_by value (the whitelist is WORKLIST_SORT_FIELDS), as SQL text. */
const SORT_COLUMNS = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  datetime: 'study_datetime',
  patient_name: 'patient_name',
  patient_id: 'patient_identifier',
  modality: 'modality',
  study: 'study_description',
  status: 'status',
  priority_tag: 'priority_tag',
  series_count: 'series_count',
} satisfies Record<TWorklistSortField, string>;

/** A timestamptz as Date.toISOString() writes it (UTC, milliseconds truncated as the drivers do). */
function isoText(column: string): SQL {
  return sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
}

/**
 * One worklist item (TWorklistItem, the fields in presentWorklistItem's order) as JSON text, built by
 * PostgreSQL from the page row `s`, its facility `f`, assignee `u` and documents `d`.
 */
const ITEM_JSON = sql.join(
  [
    sql.raw(`json_build_object(
      'id', s.id, 'facility_fk', s.facility_id, 'facility', f.name, 'study_uid', s.study_uid,
      'accession_number', s.accession_number, 'patient_name', s.patient_name,
      'patient_id', s.patient_identifier, 'patient_sex', s.patient_sex,
      'patient_birth_date', s.patient_birth_date, 'modality', s.modality,
      'modality_group', s.modality_group, 'study', s.study_description, 'body_part', s.body_part,
      'datetime', `),
    isoText('s.study_datetime'),
    sql.raw(`, 'series_count', s.series_count, 'instance_count', s.instance_count, 'status', s.status,
      'priority_tag', s.priority_tag, 'last_assigned_user_fk', s.last_assigned_user_id,
      'last_assigned_user_display_name', u.display_name,
      'referring_physician_fk', s.referring_physician_id,
      'referring_physician', s.referring_physician_name, 'clinical_history', s.clinical_history,
      'collaboration_enabled', s.collaboration_enabled,
      'patient_documents', coalesce(d.documents, '[]'::json), 'created_at', `),
    isoText('s.created_at'),
    sql.raw(`, 'updated_at', `),
    isoText('s.updated_at'),
    sql.raw(`)::text`),
  ],
  sql.raw(''),
);

/** The patient documents of the page row `s` as a JSON array (null when it has none), oldest first. */
const DOCUMENTS_JSON = sql.join(
  [
    sql.raw(`select json_agg(json_build_object('id', pd.id, 'filename', pd.filename,
      'media_type', sf.media_type, 'size_bytes', sf.size_bytes, 'created_at', `),
    isoText('pd.created_at'),
    sql.raw(`) order by pd.created_at) as documents
      from patient_documents pd join stored_files sf on sf.id = pd.file_id where pd.study_id = s.id`),
  ],
  sql.raw(''),
);

/**
 * One page of the worklist and the total as the response's JSON text, in one statement: the page
 * (WHERE, ORDER BY, LIMIT on studies) is joined to its facility, assignee and documents and each
 * item is built as JSON by PostgreSQL, so Node neither maps rows nor validates them again (the
 * shape is TWorklistItem's, pinned by the route tests against presentWorklistItem's). The count is
 * an uncorrelated scalar subquery (run once, index-only where the indexes allow). Ties (and nulls:
 * first when descending, last when ascending, PostgreSQL's default) are broken by id in the same
 * direction, so pages never overlap. A page past the end has no row to carry the total, so it is
 * counted on its own.
 */
export async function listWorklistJson(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
  query: Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>,
): Promise<string> {
  const where = worklistWhere(db, criteria, criteria.statuses);
  const direction = query.sort_order === 'asc' ? 'asc' : 'desc';
  const column = SORT_COLUMNS[query.sort_by];
  const order = sql.raw(`order by s.${column} ${direction}, s.id ${direction}`);
  const limits = sql`limit ${query.limit} offset ${query.offset}`;
  // With a search, the trigram index finds the matches but cannot give them in order, and PostgreSQL
  // estimates them as many (it then walks created_at backwards filtering on search_text: 70–90 ms for
  // a rare full name). The matches (id and sort key only) are collected once and both the total and
  // the page are read from them: never much more than the count, which runs anyway.
  const [matches, totalSql, pageSql] =
    criteria.searchPattern === null
      ? [
          sql``,
          sql`(select count(*) from studies where ${where})`,
          sql`select * from studies where ${where} ${sql.raw(`order by studies.${column} ${direction}, studies.id ${direction}`)} ${limits}`,
        ]
      : [
          sql`with matches as materialized (select "studies"."id", ${sql.raw(`"studies"."${column}"`)} as sort_key from studies where ${where}) `,
          sql`(select count(*) from matches)`,
          sql`select studies.* from (select id, sort_key from matches ${sql.raw(`order by sort_key ${direction}, id ${direction}`)} ${limits}) p join studies on studies.id = p.id`,
        ];
  const rows = await queryRows<{ item: string; total: number }>(
    db,
    sql`${matches}select ${ITEM_JSON} as item, ${totalSql}::int as total
      from (${pageSql}) s
      join facilities f on f.id = s.facility_id
      left join users u on u.id = s.last_assigned_user_id
      left join lateral (${DOCUMENTS_JSON}) d on true
      ${order}`,
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    const [counted] =
      query.offset > 0
        ? await queryRows<{ total: number }>(
            db,
            sql`select count(*)::int as total from studies where ${where}`,
          )
        : [];
    total = counted?.total ?? 0;
  }
  const page = JSON.stringify(paginate(total, query.limit, query.offset));
  return `{"items":[${rows.map((row) => row.item).join(',')}],${page.slice(1)}`;
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
  const rows = await queryRows<{ status: TStudyStatus; count: number }>(
    db,
    sql`select status, count(*)::int as count from studies
      where ${worklistWhere(db, criteria, criteria.countedStatuses)} group by status`,
  );
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
