// The report finder's statements: the conditions on a report and on its study, the page planned by
// PostgreSQL (matches found by the GIN index of search_vector or by walking the reports' copies of
// their study's arrival, counted up to a cap), and a page's rows in full (details, rank, ts_headline
// for the page's rows only), for that page or one found by the walk (report-finder-walk.ts).
import { cappedCountLimit, REPORT_FINDER_COUNT_CAP } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { oneOf } from '../../db/one-of.ts';
import { queryRows } from '../../db/rows.ts';
import { visibleStudies } from '../../access/studies-scope.ts';
import { dateRangeOn, facilitiesOf, worklistFilters } from '../worklist/list/worklist-criteria.ts';
import type { TReportFinderCriteria, TTextQuery } from './report-finder-criteria.ts';
import { MATCH_START, MATCH_STOP, OPENING_LENGTH } from './report-snippet.ts';

/** One row of the page as PostgreSQL returns it (timestamps as Date or text, by driver). */
export type TReportFinderRow = {
  /** The matches counted: exact, or a lower bound when total_capped. */
  total: number | string;
  total_capped: boolean;
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

export const tsquery = (text: TTextQuery) => sql`${text.tsquery}::tsquery`;

/**
 * The conditions on the report alone: the organisation, the caller's facilities (unless `facilities`
 * is false: a walk per facility says them), the date range and deletion on its copies of its study,
 * the report's status and the study left out.
 */
export function reportSide(criteria: TReportFinderCriteria, options: { facilities: boolean }): SQL[] {
  const { worklist } = criteria;
  const conditions: SQL[] = [sql`"reports"."organisation_id" = ${worklist.scope.organisationId}::uuid`];
  const facilities = facilitiesOf(worklist);
  if (facilities && options.facilities) {
    conditions.push(
      facilities.length > 0 ? oneOf('"reports"."facility_id"', facilities, 'uuid') : sql`false`,
    );
  }
  conditions.push(...dateRangeOn('"reports"."study_created_at"', worklist));
  if (!criteria.studyStatuses.includes('DELETED')) conditions.push(sql`not "reports"."study_deleted"`);
  if (criteria.reportStatuses.length > 0) {
    conditions.push(oneOf('"reports"."status"', criteria.reportStatuses, 'report_status'));
  }
  if (criteria.excludeStudyId) {
    conditions.push(sql`"reports"."study_id" <> ${criteria.excludeStudyId}::uuid`);
  }
  return conditions;
}

/** The conditions on the report's study: a referrer's referrals, the worklist's filters, the finder's. */
export function studySide(db: TDbOrTx, criteria: TReportFinderCriteria): SQL[] {
  const { worklist } = criteria;
  const conditions: SQL[] = [];
  // A referring physician's visibility is by referral (and the organisation), said on the study.
  if (worklist.scope.principal.role === 'REFERRING_PHYSICIAN')
    conditions.push(visibleStudies(worklist.scope));
  // `search` on the plain trigram index (resolved without keyed search: the keyed forms rely on the
  // worklist's own facility and range conditions on studies, which the finder says on the report).
  conditions.push(worklistFilters(db, worklist, criteria.studyStatuses, { from: false, to: false }));
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
  return conditions;
}

/**
 * How many matches are counted at most: the cap, or past the page asked for (so a page beyond the
 * cap still knows whether another follows). One more than the total reported.
 */
export function countLimitOf(criteria: Pick<TReportFinderCriteria, 'limit' | 'offset'>): number {
  return cappedCountLimit(REPORT_FINDER_COUNT_CAP, criteria);
}

/**
 * The page's rows in full (patient, study, signer, snippet, rank, PDF), from `page` (id, rank,
 * study_created_at, block: see rankBlockOf) and `counted` (total): one row with null report_id when the
 * page is empty.
 */
function pageDetails(criteria: TReportFinderCriteria, ctes: SQL): SQL {
  const { text } = criteria;
  const snippet = text
    ? sql`ts_headline(${text.config}::regconfig, translate(r.content_text, ${MATCH_START + MATCH_STOP}, '  '),
        ${tsquery(text)}, ${HEADLINE_OPTIONS})`
    : sql`left(r.content_text, ${OPENING_LENGTH * 2})`;
  return sql`with ${ctes}
    select counted.total, counted.total_capped, p.id as report_id, s.id as study_id, s.patient_id, s.patient_name,
      s.patient_identifier, s.accession_number, s.study_description, s.modality, s.modality_group,
      s.facility_id, f.name as facility_name, s.status as study_status, s.priority_tag, s.created_at,
      s.study_datetime, r.status as report_status, u.id as radiologist_id,
      coalesce(nullif(u.display_name, ''), nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) as radiologist_name,
      r.finalized_at, r.updated_at, ${snippet} as snippet_source,
      ${text ? sql`coalesce(p.rank, ts_rank_cd(r.search_vector, ${tsquery(text)}))` : sql`null::real`} as rank,
      (r.status = 'COMPLETED' and r.pdf_file_id is not null) as has_pdf
    from counted
    left join page p on true
    left join "reports" r on r.id = p.id
    left join "studies" s on s.id = r.study_id
    left join "facilities" f on f.id = s.facility_id
    left join "users" u on u.id = coalesce(r.finalized_by, s.last_assigned_user_id)
    order by p.block, p.rank desc nulls last, p.study_created_at desc, p.id desc`;
}

const byRelevance = (criteria: TReportFinderCriteria) =>
  criteria.sort === 'relevance' && criteria.text !== null;

/**
 * By relevance, the matches are ranked in blocks of REPORT_FINDER_COUNT_CAP, newest first: the
 * newest cap best first, then the next cap best first, and so on. A page past the cap then continues
 * the pages before it (ranking every match counted for that page would move earlier pages' matches
 * past the cap: duplicates and gaps).
 */
export const rankBlockOf = (index: number) => Math.floor(index / REPORT_FINDER_COUNT_CAP);

/** A page found by the walk (report-finder-walk.ts): its rows in full, with the total it counted. */
export function walkedPage(
  db: TDbOrTx,
  criteria: TReportFinderCriteria,
  page: readonly { id: string; rank: number | null; study_created_at: string; block: number }[],
  total: { count: number; capped: boolean },
): Promise<TReportFinderRow[]> {
  const ids = page.map((row) => row.id);
  const ranks = page.map((row) => (row.rank === null ? 'NULL' : String(row.rank)));
  const times = page.map((row) => `"${row.study_created_at}"`);
  const blocks = page.map((row) => String(row.block));
  return queryRows<TReportFinderRow>(
    db,
    pageDetails(
      criteria,
      sql`counted as (select ${total.count}::int as total, ${total.capped}::boolean as total_capped),
        page as (select * from unnest(${`{${ids.join(',')}}`}::uuid[], ${`{${ranks.join(',')}}`}::real[],
          ${`{${times.join(',')}}`}::timestamptz[], ${`{${blocks.join(',')}}`}::int[]) as p(id, rank, study_created_at, block))`,
    ),
  );
}

/**
 * The page of matches and their total up to countLimitOf, as PostgreSQL plans it (the GIN index for
 * rare words, the walk by arrival for common ones). By relevance, the newest countLimitOf − 1
 * matches are ranked in blocks (rankBlockOf). `few`: the filters pick few reports (a patient,
 * a referrer's, a search): the matches are found once for the count and the page (materialised);
 * else each reads only as many as it needs.
 */
export async function plannedPage(
  db: TDbOrTx,
  criteria: TReportFinderCriteria,
  options: { few: boolean },
): Promise<TReportFinderRow[]> {
  const { text } = criteria;
  const countLimit = countLimitOf(criteria);
  const newest = sql`"study_created_at" desc, "id" desc`;
  const page =
    byRelevance(criteria) && text !== null
      ? sql`select c."id", ts_rank_cd(rr."search_vector", ${tsquery(text)}) as "rank", c."study_created_at", c."block"
          from (select "id", "study_created_at",
              ((row_number() over (order by ${newest}) - 1) / ${REPORT_FINDER_COUNT_CAP})::int as "block"
            from (select "id", "study_created_at" from matched order by ${newest} limit ${countLimit - 1}) n) c
          join "reports" rr on rr."id" = c."id"
          order by c."block", "rank" desc, c."study_created_at" desc, c."id" desc
          limit ${criteria.limit} offset ${criteria.offset}`
      : sql`select "id", null::real as "rank", "study_created_at", 0 as "block" from matched order by ${newest}
          limit ${criteria.limit} offset ${criteria.offset}`;
  const conditions = [...reportSide(criteria, { facilities: true }), ...studySide(db, criteria)];
  if (text) conditions.push(sql`"reports"."search_vector" @@ ${tsquery(text)}`);
  return queryRows<TReportFinderRow>(
    db,
    pageDetails(
      criteria,
      sql`matched as ${options.few ? sql`materialized` : sql`not materialized`} (
        select "reports"."id", "reports"."study_created_at"
        from "reports" join "studies" on "studies"."id" = "reports"."study_id"
        where ${sql.join(conditions, sql.raw(' and '))}
      ), counted as (
        select least(count(*), ${countLimit - 1})::int as total, count(*) >= ${countLimit} as total_capped
        from (select 1 from matched limit ${countLimit}) m
      ), page as (${page})`,
    ),
  );
}
