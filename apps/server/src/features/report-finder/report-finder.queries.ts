// The report finder's one statement: the matches (the GIN index of search_vector drives the text
// match, the worklist's conditions the rest), counted exactly, and one page of them, whose details,
// rank (when sorted by date) and ts_headline are computed for the page's rows only.
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { oneOf } from '../../db/one-of.ts';
import { queryRows } from '../../db/rows.ts';
import { worklistWhere } from '../worklist/list/worklist-criteria.ts';
import type { TReportFinderCriteria, TTextQuery } from './report-finder-criteria.ts';
import { MATCH_START, MATCH_STOP, OPENING_LENGTH } from './report-snippet.ts';

/** One row of the page as PostgreSQL returns it (timestamps as Date or text, by driver). */
export type TReportFinderRow = {
  total: number | string;
  report_id: string | null;
  study_id: string;
  patient_id: string;
  patient_name: string;
  patient_identifier: string;
  accession_number: string;
  study_description: string | null;
  modality: string | null;
  modality_group: string | null;
  facility_id: string;
  facility_name: string;
  study_status: string;
  priority_tag: string | null;
  created_at: Date | string;
  study_datetime: Date | string | null;
  report_status: string;
  radiologist_id: string | null;
  radiologist_name: string | null;
  finalized_at: Date | string | null;
  updated_at: Date | string;
  /** ts_headline with MATCH_START/MATCH_STOP around matches (with q), else the opening characters. */
  snippet_source: string;
  rank: number | string | null;
  has_pdf: boolean;
};

/**
 * ts_headline's options: up to two fragments of 12-30 words around the matches. The markers cannot
 * occur in the text: it is given to ts_headline with them replaced by spaces.
 */
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_STOP}, MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

const tsquery = (text: TTextQuery) => sql`${text.tsquery}::tsquery`;

/** The conditions on the report and its study beyond the worklist's. */
function reportConditions(db: TDbOrTx, criteria: TReportFinderCriteria): SQL[] {
  const { worklist } = criteria;
  const conditions: SQL[] = [
    worklistWhere(db, worklist, criteria.studyStatuses),
    // Reports carry the organisation (the same as their study's): said for the planner's sake.
    sql`"reports"."organisation_id" = ${worklist.scope.organisationId}::uuid`,
  ];
  if (criteria.reportStatuses.length > 0) {
    conditions.push(oneOf('"reports"."status"', criteria.reportStatuses, 'report_status'));
  }
  if (criteria.radiologistIds.length > 0) {
    conditions.push(oneOf('"reports"."finalized_by"', criteria.radiologistIds, 'uuid'));
  }
  if (criteria.referringPhysicianIds.length > 0) {
    conditions.push(oneOf('"studies"."referring_physician_id"', criteria.referringPhysicianIds, 'uuid'));
  }
  if (criteria.tagIds.length > 0) {
    conditions.push(sql`exists (select 1 from "worklist_tags" where "worklist_tags"."study_id" = "studies"."id"
      and ${oneOf('"worklist_tags"."tag_id"', criteria.tagIds, 'uuid')})`);
  }
  if (criteria.patientId) conditions.push(sql`"studies"."patient_id" = ${criteria.patientId}::uuid`);
  if (criteria.excludeStudyId) conditions.push(sql`"studies"."id" <> ${criteria.excludeStudyId}::uuid`);
  if (criteria.text) conditions.push(sql`"reports"."search_vector" @@ ${tsquery(criteria.text)}`);
  return conditions;
}

/** The page of matches and their exact total (one row with null report_id when the page is empty). */
export async function findReports(db: TDbOrTx, criteria: TReportFinderCriteria): Promise<TReportFinderRow[]> {
  const { text } = criteria;
  const byRelevance = criteria.sort === 'relevance' && text !== null;
  const order = byRelevance
    ? sql`"rank" desc, "created_at" desc, "id" desc`
    : sql`"created_at" desc, "id" desc`;
  const snippet = text
    ? sql`ts_headline(${text.config}::regconfig, translate(r.content_text, ${MATCH_START + MATCH_STOP}, '  '),
        ${tsquery(text)}, ${HEADLINE_OPTIONS})`
    : sql`left(r.content_text, ${OPENING_LENGTH * 2})`;
  return queryRows<TReportFinderRow>(
    db,
    sql`with matched as (
      select "reports"."id", "studies"."created_at", ${byRelevance && text ? sql`ts_rank_cd("reports"."search_vector", ${tsquery(text)})` : sql`null::real`} as "rank"
      from "reports" join "studies" on "studies"."id" = "reports"."study_id"
      where ${sql.join(reportConditions(db, criteria), sql.raw(' and '))}
    ), page as (
      select "id", "rank", "created_at" from matched order by ${order}
      limit ${criteria.limit} offset ${criteria.offset}
    )
    select counted.total, p.id as report_id, s.id as study_id, s.patient_id, s.patient_name,
      s.patient_identifier, s.accession_number, s.study_description, s.modality, s.modality_group,
      s.facility_id, f.name as facility_name, s.status as study_status, s.priority_tag, s.created_at,
      s.study_datetime, r.status as report_status, u.id as radiologist_id,
      coalesce(nullif(u.display_name, ''), nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) as radiologist_name,
      r.finalized_at, r.updated_at, ${snippet} as snippet_source,
      ${text ? sql`coalesce(p.rank, ts_rank_cd(r.search_vector, ${tsquery(text)}))` : sql`null::real`} as rank,
      (r.status = 'COMPLETED' and r.pdf_file_id is not null) as has_pdf
    from (select count(*)::int as total from matched) counted
    left join page p on true
    left join "reports" r on r.id = p.id
    left join "studies" s on s.id = r.study_id
    left join "facilities" f on f.id = s.facility_id
    left join "users" u on u.id = coalesce(r.finalized_by, s.last_assigned_user_id)
    order by ${byRelevance ? sql`p.rank desc,` : sql``} p.created_at desc, p.id desc`,
  );
}
