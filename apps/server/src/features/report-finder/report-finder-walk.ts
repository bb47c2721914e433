// The report finder's walk: the matches of a common word (or of no word) found by reading the
// caller's reports newest first by their study's arrival (reports_organisation_arrival_idx, or one
// reports_facility_arrival_idx scan per facility, merged) and testing each, stopping at the count
// cap. Where many reports match, that reads a few thousand rows, and it does not depend on the
// planner's estimate of how often words occur together (it takes "renal calculus", two words that
// always come together, for ten times rarer than it is, and then sorts every match of a month).
// A probe of the newest PROBE reports measures how often they match: the walk runs only when that
// rate reaches the cap within WALK_MAX reports; otherwise, and when the walk falls short of the cap,
// the planner's statement (the GIN index for rare words) answers, with an exact total.
import { STUDY_STATUSES } from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import { facilitiesOf } from '../worklist/list/worklist-criteria.ts';
import type { TReportFinderCriteria } from './report-finder-criteria.ts';
import {
  countLimitOf,
  plannedPage,
  rankBlockOf,
  reportSide,
  studySide,
  tsquery,
  walkedPage,
  type TReportFinderRow,
} from './report-finder.queries.ts';

/** Reports read by the probe: enough to tell a word in one report of ten from one in a hundred. */
const PROBE = 500;
/** The most reports a walk reads (about 30 ms on 2 cores); rarer words go to the GIN index. */
const WALK_MAX = 15_000;
/** Up to this many facilities are walked one index scan each, merged; more share the organisation's. */
const MERGED_FACILITIES = 32;

/**
 * Whether a walk can serve these filters: those a newest-first walk meets often. A referrer's
 * referrals, an assignee, a patient, patient/study text, a signer, a referring physician or tags
 * pick few reports of many: PostgreSQL's plan (their indexes) finds them.
 */
function walkable(criteria: TReportFinderCriteria): boolean {
  const { worklist } = criteria;
  return (
    worklist.scope.principal.role !== 'REFERRING_PHYSICIAN' &&
    worklist.byUserIds.length === 0 &&
    worklist.searchText === null &&
    criteria.patientId === null &&
    criteria.radiologistIds.length === 0 &&
    criteria.referringPhysicianIds.length === 0 &&
    criteria.tagIds.length === 0
  );
}

/** Whether a walk must join the study: a modality or priority filter, or statuses short of all live ones. */
function needsStudy(criteria: TReportFinderCriteria): boolean {
  const { worklist, studyStatuses } = criteria;
  const everyLive = STUDY_STATUSES.every((status) => status === 'DELETED' || studyStatuses.includes(status));
  return worklist.modalities.length > 0 || worklist.priorityTags.length > 0 || !everyLive;
}

type THit = { id: string; rank: number | string | null; study_created_at: string };

/** The newest `walk` reports in scope, newest first: the walk's source, before any word is tested. */
function walkSource(criteria: TReportFinderCriteria, walk: number): SQL {
  const facilities = facilitiesOf(criteria.worklist);
  const columns = sql`"reports"."id", "reports"."study_created_at", "reports"."study_id", "reports"."search_vector"`;
  const newest = sql`order by "study_created_at" desc, "id" desc limit ${walk}`;
  if (facilities && facilities.length > 0 && facilities.length <= MERGED_FACILITIES) {
    const side = sql.join(reportSide(criteria, { facilities: false }), sql.raw(' and '));
    const scans = facilities.map(
      (id) =>
        sql`(select ${columns} from "reports" where "reports"."facility_id" = ${id}::uuid and ${side} ${newest})`,
    );
    return sql`select * from (${sql.join(scans, sql.raw(' union all '))}) u ${newest}`;
  }
  const side = sql.join(reportSide(criteria, { facilities: true }), sql.raw(' and '));
  return sql`select ${columns} from "reports" where ${side} ${newest}`;
}

/** Up to countLimit matches among the newest `walk` reports in scope, newest first. */
function walkHits(db: TDbOrTx, criteria: TReportFinderCriteria, walk: number, countLimit: number) {
  const { text } = criteria;
  const joinStudy = needsStudy(criteria);
  const conditions: SQL[] = joinStudy ? studySide(db, criteria) : [];
  if (text) conditions.push(sql`w."search_vector" @@ ${tsquery(text)}`);
  const rank =
    text && criteria.sort === 'relevance'
      ? sql`ts_rank_cd(w."search_vector", ${tsquery(text)})`
      : sql`null::real`;
  return queryRows<THit>(
    db,
    sql`select w."id", ${rank} as "rank", w."study_created_at"::text as "study_created_at"
      from (${walkSource(criteria, walk)}) w
      ${joinStudy ? sql`join "studies" on "studies"."id" = w."study_id"` : sql``}
      where ${conditions.length > 0 ? sql.join(conditions, sql.raw(' and ')) : sql`true`}
      order by w."study_created_at" desc, w."id" desc limit ${countLimit}`,
  );
}

/** Whether the caller's reports in range are fewer than `walk`: a walk of `walk` read them all. */
async function walkReadAll(db: TDbOrTx, criteria: TReportFinderCriteria, walk: number): Promise<boolean> {
  const [row] = await queryRows<{ walked: number | string }>(
    db,
    sql`select count(*) as walked from (${walkSource(criteria, walk)}) w`,
  );
  return Number(row?.walked ?? 0) < walk;
}

/**
 * The page of matches and their total: by the walk when the probe finds the words common enough to
 * fill the page within WALK_MAX reports, else PostgreSQL's plan. The walk's total is the cap when it
 * reaches it, exact when it read every report in range, else a lower bound (the matches it read, more
 * than the page needs); short of the page, PostgreSQL's plan answers. By relevance, the matches
 * counted are ranked (in blocks, rankBlockOf), and the walk decides as for the page at offset 0:
 * every page then ranks the same matches (the plan's page past a lower bound would rank others:
 * duplicates and gaps), and by relevance the pages end at a lower bound.
 */
export async function findReports(
  db: TDbOrTx,
  criteria: TReportFinderCriteria,
  limits: { probe: number; walkMax: number } = { probe: PROBE, walkMax: WALK_MAX },
): Promise<TReportFinderRow[]> {
  if (!walkable(criteria)) return plannedPage(db, criteria, { few: true });
  const countLimit = countLimitOf(criteria);
  const ranked = criteria.sort === 'relevance' && criteria.text !== null;
  const pageNeeds = (ranked ? 0 : criteria.offset) + criteria.limit + 1;
  const probe = await walkHits(db, criteria, limits.probe, countLimit);
  // The matches the longest walk would find at the probe's rate: too few for the page, the GIN index.
  if ((probe.length * limits.walkMax) / limits.probe < pageNeeds * 1.5) {
    return plannedPage(db, criteria, { few: false });
  }
  const perMatch = limits.probe / Math.max(probe.length, 1);
  const walk = Math.min(limits.walkMax, Math.ceil(countLimit * perMatch * 1.5));
  const hits = await walkHits(db, criteria, walk, countLimit);
  let total: { count: number; capped: boolean };
  if (hits.length >= countLimit) total = { count: countLimit - 1, capped: true };
  else if (await walkReadAll(db, criteria, walk)) total = { count: hits.length, capped: false };
  else if (hits.length >= pageNeeds) total = { count: hits.length, capped: true };
  else return plannedPage(db, criteria, { few: false });
  const ordered = hits.slice(0, total.count).map((hit, index) => ({
    ...hit,
    rank: hit.rank === null ? null : Number(hit.rank),
    block: ranked ? rankBlockOf(index) : 0,
  }));
  // By relevance: each block of the matches counted best first; ties stay newest first (a stable sort).
  if (ranked) ordered.sort((a, b) => a.block - b.block || (b.rank ?? 0) - (a.rank ?? 0));
  const page = ordered.slice(criteria.offset, criteria.offset + criteria.limit);
  return walkedPage(db, criteria, page, total);
}
