// How far a search's page sorted by a column header (not arrival) walks the column's sort index
// (prefixWalkSql): how many rows the walk reads for the text's density, and how many of the index's
// entries those rows are kept from, given the range's share of the index and the share of the
// organisation's studies the caller's filters keep; past what such a walk costs, the matches are
// collected instead. For a search with keys (worklist-sorted-search.ts) and without (keylessPrefixOf).
import {
  MODALITIES,
  STUDY_STATUSES,
  type TModality,
  type TStudyStatus,
  type TWorklistListQuery,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '../../../db/client.ts';
import { GROUP_LED_SORT_COLUMNS } from '../../../db/schema/studies.ts';
import { queryRows } from '../../../db/rows.ts';
import { facilitiesOf, keepsPartOf, LISTED_STATUSES, type TWorklistCriteria } from './worklist-criteria.ts';
import { facilityShareOf, firstArrivalHeld, heldFigure } from './worklist-held-figures.ts';
import { rollupStatusCountsSql, rollupTotalSql } from './worklist-rollup.ts';
import { groupsHoldingText, listedKeyedShareOf } from './worklist-search-modality.ts';
import { DENSE_ONE_IN, probeDensity } from './worklist-dense-search.ts';
import { PREFIX_SEARCH_ENTRIES, PREFIX_SEARCH_ROWS, prefixStartOf } from './worklist-page-walk.ts';

type TPage = Pick<TWorklistListQuery, 'limit' | 'offset' | 'sort_by' | 'sort_order'>;

/** The rows a walk reads at most (2-3 µs each): past them, the matches are collected and sorted. */
const PREFIX_SEARCH_ROWS_AT_MOST = 10_000;
/** The rows read for the page's end are its matches over the density, times this (matches bunch). */
const ROWS_MARGIN = 1.5;
/**
 * The sort index's entries a walk reads at most (0.15-0.2 µs each). The index holds every date: a
 * range keeps its share of them, so a week of 13 keeps one entry in 13 and its deep pages are
 * collected (an admin's week of "lumbar spine" at offset 500: 11,300 matches, 22 ms, where a walk of
 * 20,000 entries that found 1,500 of the week's rows added 14 ms) …
 */
const PREFIX_ENTRIES_AT_MOST = 100_000;
/**
 * … but up to this many where the walk costs less than collecting its matches (walkCostsLess): a
 * reporter's own "chest" over all dates by name at offset 500 collected 8,167 matches from 35,000
 * candidates (100-120 ms) where 139,000 entries of the name index hold its page (45 ms with the count).
 */
const PREFIX_ENTRIES_COLLECTING_MORE = 300_000;
/** A walked entry the filters keep reads its row for the text (2-3 µs): as many as 15 entries. */
const ROW_ENTRIES = 15;
/**
 * A candidate the search's keys find, read to test the filters and the range and sort it (2-3 µs): as
 * many as 12 entries. A reporter's own "lumbar spine" over all dates (3,546 of 15,000 candidates) were
 * collected in 28 ms, where a walk of 223,000 entries took 56 with the count; a radiologist's 7,557
 * "spine" (every candidate a match) in 19-42 ms, where a walk of 174,000 entries reading 8,700 rows
 * took 46-63.
 */
const CANDIDATE_ENTRIES = 12;

/**
 * The share of the sort index's entries the walk reads, first to now, that the range spans (at least
 * 1 %): of the organisation's arrivals (its first held, an estimate), or from the range's start where
 * the walk begins there (prefixStartOf).
 */
async function rangeShareOf(database: TDatabase, criteria: TWorklistCriteria, page: TPage): Promise<number> {
  if (criteria.from === null && criteria.to === null) return 1;
  const first =
    prefixStartOf(criteria, page)?.getTime() ??
    (await firstArrivalHeld(database.db, criteria.scope.organisationId));
  const now = criteria.now.getTime();
  if (first === null || first >= now) return 1;
  const from = Math.max(criteria.from?.getTime() ?? first, first);
  const to = Math.min(criteria.to?.at.getTime() ?? now, now);
  return Math.min(1, Math.max(0.01, (to - from) / (now - first)));
}

/**
 * How many rows the walk reads to find the page at `density` (at least PREFIX_SEARCH_ROWS), or null
 * past PREFIX_SEARCH_ROWS_AT_MOST.
 */
export function prefixRowsFor(page: TPage, density: number, oneIn: number): number | null {
  const share = Math.max(density, 1 / oneIn);
  const rows = Math.max(PREFIX_SEARCH_ROWS, Math.ceil(((page.offset + page.limit) * ROWS_MARGIN) / share));
  return rows <= PREFIX_SEARCH_ROWS_AT_MOST ? rows : null;
}

/**
 * A prefix walk that did not hold the page is walked once more this many times as far, within the
 * bounds of a first walk (PREFIX_ENTRIES_AT_MOST entries, PREFIX_SEARCH_ROWS_AT_MOST rows). The walk
 * stops at the page, so only a walk that fails reads its whole budget; collecting the matches then
 * reads each from its row. The estimates behind a budget are of the whole archive: a reporter holds
 * 2.3 % of the organisation's studies but 1.3 % of the last updated, and their month of "chest" by
 * last update, limit 100, found 95 rows in 20,000 entries, then collected 2,888 matches (100-180 ms).
 */
const PREFIX_RETRY_GROWTH = 4;

/** The budget and rows of a prefix walk's second try (PREFIX_RETRY_GROWTH), or null past its bounds. */
export function retriedPrefixOf(first: {
  budget: number;
  rows: number;
}): { budget: number; rows: number } | null {
  const grown = (value: number, most: number) => Math.max(value, Math.min(value * PREFIX_RETRY_GROWTH, most));
  const budget = grown(first.budget, PREFIX_ENTRIES_AT_MOST);
  const rows = grown(first.rows, PREFIX_SEARCH_ROWS_AT_MOST);
  return budget > first.budget || rows > first.rows ? { budget, rows } : null;
}

/** The rows a prefix walk reads, the entries they are kept from, and the walk's budget (null: none). */
export type TPrefixSize = { rows: number; entries: number; budget: number | null };

/**
 * How far a prefix walk of `column`'s sort index goes for the page, the text's `density` among the
 * range's newest filtered studies (at least one in `oneIn` counted): its rows (prefixRowsFor), the
 * entries they are kept from (the range's share of the index), and its budget (prefixBudget). Null
 * where the rows or the entries pass their bounds: the matches are collected.
 */
export async function prefixSizeOf(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
  density: { share: number; oneIn: number },
  /** The groups a group-led index is walked for (groupsWalkedFor); null: the filter's, or all of them. */
  groups: readonly TModality[] | null,
  /** Whether the matches are otherwise collected by the search's keys (collectingCostOf); else 0. */
  keyed = true,
): Promise<TPrefixSize | null> {
  const rows = prefixRowsFor(page, density.share, density.oneIn);
  if (rows === null) return null;
  const rangeShare = await rangeShareOf(database, criteria, page);
  // The entries of the statuses the caller keeps none of, first in a status walk, hold no row of it.
  const lead = await statusLeadOf(database, criteria, page, column);
  const entries = lead + Math.max(PREFIX_SEARCH_ENTRIES, Math.ceil((rows * 2) / rangeShare));
  if (entries > PREFIX_ENTRIES_AT_MOST) return null;
  const { statuses } = criteria;
  const filtered = await filteredStudiesOf(database, criteria, statuses);
  const budget = prefixBudget(page, {
    entries,
    density: density.share,
    rangeShare,
    filterShare: filtered.share,
    collecting: keyed
      ? await collectingCostOf(database, criteria, density.share * filtered.all, rangeShare)
      : 0,
    // A filter on the sorted column keeps blocks of its entries, not a share spread over them.
    widens: !sortsByItsFilter(criteria, statuses, column),
    groupLed: GROUP_LED_SORT_COLUMNS.includes(column) && (groups !== null || criteria.modalities.length > 0),
    lead,
  });
  return { rows, entries, budget };
}

/**
 * The entries a prefix walk reads for the page: `entries` where their matches (at the text's density
 * among the filtered studies) that the caller's filters keep (their share of the organisation's
 * studies, filteredStudiesOf) and the range keeps (its share, but for the study date and last update,
 * which follow arrival: a recent range's studies lie first, newest first) reach the page's end. Else,
 * where no filter keeps blocks of the sorted column (`widens`), as many as hold the page's end
 * ROWS_MARGIN times, up to PREFIX_ENTRIES_AT_MOST (PREFIX_ENTRIES_COLLECTING_MORE where the walk costs
 * less than collecting): a radiologist's "brain" over all dates by name at offset 500 collected its
 * 12,500 matches from their rows scattered over the table (92-136 ms; walking the entries that hold
 * its page, 39-60). Null past that: a radiologist's month of "lumbar spine" by patient id at offset
 * 500 (5 of 100 facilities) kept some 80 of the 525 rows after counting up to the cap, 20 ms for
 * nothing before its matches were collected.
 */
export function prefixBudget(
  page: TPage,
  walk: {
    entries: number;
    density: number;
    rangeShare: number;
    filterShare: number;
    widens: boolean;
    groupLed: boolean;
    /** What collecting the matches instead costs, in entries (collectingCostOf). */
    collecting: number;
    /** The first entries, which the filters keep none of (statusLeadOf): read before any is kept. */
    lead?: number;
  },
): number | null {
  // By modality or description (`groupLed`), the walk reads only some groups (the text's, or the filter's),
  // where its matches lie together: a month of "chest" by description holds its page.
  if (walk.groupLed) return walk.entries;
  const followsArrival = page.sort_by === 'datetime' || page.sort_by === 'updated_at';
  const kept = walk.density * walk.filterShare * (followsArrival ? 1 : walk.rangeShare);
  const end = page.offset + page.limit;
  const lead = walk.lead ?? 0;
  if ((walk.entries - lead) * kept >= end) return walk.entries;
  const widened = lead + Math.ceil((end * ROWS_MARGIN) / kept);
  // Past PREFIX_ENTRIES_AT_MOST where the walk, its rows read, costs less than collecting.
  const walkCostsLess = widened * (1 + ROW_ENTRIES * walk.filterShare) <= walk.collecting;
  const most = walkCostsLess ? PREFIX_ENTRIES_COLLECTING_MORE : PREFIX_ENTRIES_AT_MOST;
  return walk.widens && kept > 0 && widened <= most ? widened : null;
}

/** Whether a filter keeps some values of the sorted column: a status tab by status, a priority by priority. */
function sortsByItsFilter(criteria: TWorklistCriteria, statuses: readonly TStudyStatus[], column: string) {
  if (column === 'status') return !LISTED_STATUSES.every((status) => statuses.includes(status));
  return column === 'priority_tag' && criteria.priorityTags.length > 0;
}

/**
 * What collecting a search's matches costs, in a walk's entries: CANDIDATE_ENTRIES for each study its
 * keys find holding the text (`matching` of the organisation's, every date), of the weeks' share
 * (week keys) or the facilities' (facility keys), whatever the other filters keep of them.
 */
async function collectingCostOf(
  database: TDatabase,
  criteria: TWorklistCriteria,
  matching: number,
  rangeShare: number,
): Promise<number> {
  const { searchWeeks, searchFacilities } = criteria;
  const keyedShare = searchWeeks
    ? rangeShare
    : searchFacilities
      ? await facilityShareOf(database.db, criteria.scope.organisationId, searchFacilities.length)
      : 1;
  return CANDIDATE_ENTRIES * matching * keyedShare;
}

/**
 * A search text's share of the studies and its matches in the range, estimated from the keyed index's
 * statistics (listedKeyedShareOf: every date, in memory): that share of the range's studies
 * (rangeStudiesOf). Null without statistics, or where they do not list each of its keys. Not the
 * probe of the range's newest studies (probeDensity), whose few hundred rows follow a few patients:
 * "soren" (one study in 42) was one in 128 there.
 */
export async function keyedMatchesOf(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
): Promise<{ share: number; matches: number } | null> {
  if (criteria.searchText === null) return null;
  const share = await listedKeyedShareOf(database.db, criteria.searchText);
  if (share === null) return null;
  return { share, matches: share * (await rangeStudiesOf(database, criteria, page)) };
}

/**
 * How many studies the caller's filters keep in the range, every text: the studies they keep
 * (filteredStudiesOf) of the range's share of the sort index (rangeShareOf). An estimate.
 */
export async function rangeStudiesOf(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
): Promise<number> {
  const filtered = await filteredStudiesOf(database, criteria, criteria.statuses);
  return filtered.all * filtered.share * (await rangeShareOf(database, criteria, page));
}

/**
 * The caller's filters without the text nor the range (`filtered`), the organisation's studies with
 * none (`whole`), and the key naming the filters over `statuses`, for figures summed from the rollups.
 */
function rollupFiltersOf(criteria: TWorklistCriteria, statuses: readonly TStudyStatus[]) {
  const filtered = { ...criteria, searchText: null, from: null, to: null };
  const whole = {
    ...filtered,
    facilityIds: [],
    byUserIds: [],
    modalities: [],
    priorityTags: [],
    scope: { ...criteria.scope, allFacilities: true },
  };
  const named = (values: readonly string[] | null) => (values ? [...values].sort().join(',') : '*');
  const filters = [
    facilitiesOf(criteria),
    criteria.byUserIds,
    statuses,
    criteria.modalities,
    criteria.priorityTags,
  ];
  return { filtered, whole, key: `${criteria.scope.organisationId}:${filters.map(named).join(':')}` };
}

/**
 * How many studies of every date the organisation has (the sort index's entries), and the share of
 * them the caller's filters keep (their facilities, assignees, statuses, modality groups and priority
 * tags): summed from the rollups (a reporter's own studies: 6,000 rows of the assignee rollup,
 * 3 ms) and held for STATS_MAX_AGE_MS. Share 1 where nothing is filtered.
 */
async function filteredStudiesOf(
  database: TDatabase,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
): Promise<{ all: number; share: number }> {
  const { db } = database;
  const { organisationId } = criteria.scope;
  const { filtered, whole, key } = rollupFiltersOf(criteria, statuses);
  const countOf = (name: string, total: SQL | null) =>
    heldFigure(db, name, async () => {
      if (!total) return null;
      const [row] = await queryRows<{ n: number }>(db, sql`select ${total}::float8 as n`);
      return row?.n ?? null;
    });
  const all = (await countOf(`studies:${organisationId}`, rollupTotalSql(db, whole, STUDY_STATUSES))) ?? 0;
  const facilities = facilitiesOf(criteria);
  if (facilities === null && criteria.byUserIds.length === 0 && !keepsPartOf(criteria, statuses)) {
    return { all, share: 1 };
  }
  const kept = (await countOf(`kept:${key}`, rollupTotalSql(db, filtered, statuses))) ?? all;
  return { all, share: all > 0 ? Math.min(1, kept / all) : 1 };
}

/**
 * How many entries a walk of the status sort index reads, in the page's order, before the first status
 * the caller's filters keep any study of (every date, from the rollups, held for STATS_MAX_AGE_MS): the
 * organisation's entries of every status within the walk's bounds (the first to the last status
 * listed) that come before it. 0 by another column, or for a caller who sees every facility without an
 * assignee filter (who keeps some of every status). A reporter's own studies are never ordered nor to
 * read: the 29,000 entries of those statuses lead the index at 1,000,000 studies, past the walk's
 * 20,000, and their "chest" by status was collected (8,300 matches, 100-190 ms).
 */
export async function statusLeadOf(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
): Promise<number> {
  if (column !== 'status' || (facilitiesOf(criteria) === null && criteria.byUserIds.length === 0)) return 0;
  const { db } = database;
  const listed = STUDY_STATUSES.filter((status) => criteria.statuses.includes(status));
  const [first, last] = [listed[0], listed.at(-1)];
  if (first === undefined || last === undefined) return 0;
  // sortIndexSelect's bounds: the statuses between the listed ones are walked too, none kept.
  const bounded = STUDY_STATUSES.slice(STUDY_STATUSES.indexOf(first), STUDY_STATUSES.indexOf(last) + 1);
  const { filtered, whole, key } = rollupFiltersOf(criteria, listed);
  const ascending = page.sort_order === 'asc';
  const lead = await heldFigure(db, `lead:${ascending ? 'asc' : 'desc'}:${key}`, async () => {
    const all = rollupStatusCountsSql(db, whole, bounded);
    const kept = rollupStatusCountsSql(db, filtered, listed);
    if (!all || !kept) return null;
    const keptFirst = sql.raw(ascending ? 'min' : 'max');
    const before = sql.raw(ascending ? '<' : '>');
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select coalesce(sum(a.count) filter (where a.status ${before}
          (select ${keptFirst}(k.status) from (${kept}) k where k.count > 0)), 0)::float8 as n
        from (${all}) a`,
    );
    return row?.n ?? null;
  });
  return lead ?? 0;
}

/**
 * A keyless search's page ending here or sooner walks the first PREFIX_SEARCH_ROWS of the sort index's
 * rows the filters keep, unsized: they hold it at one match in 13 and more, and its text's probe cost
 * 1-3 ms more on every first page (an admin's "a" by name: 4.8 -> 9.8 ms sized).
 */
const KEYLESS_SIZED_FROM = 100;

/** How far a keyless search's page is walked: entries, the rows read of them, the groups walked. */
export type TKeylessPrefix = { budget: number; rows: number; groups: TModality[] | null };

/**
 * How far a keyless search's page sorted by `column` walks the sort index once its count reaches the
 * cap (walkKeylessSearch): past KEYLESS_SIZED_FROM, as prefixSizeOf says for the text's density among
 * the range's newest studies (at least one in DENSE_ONE_IN counted). Else, and where that says no walk
 * holds the page or no probe serves the caller, the first PREFIX_SEARCH_ENTRIES entries and
 * PREFIX_SEARCH_ROWS of their rows, as before: a walk that fails costs a few ms before the matches are
 * collected. By modality or study description, only the groups that may hold the text
 * (groupsWalkedFor): "ct" by modality, newest group first, read 20,000 nuclear medicine entries for
 * none of its matches, then collected all 250,000 (400 ms over an admin's dates, 170 a radiologist's).
 * Null by arrival, walked apart.
 */
export async function keylessPrefixOf(
  database: TDatabase,
  criteria: TWorklistCriteria,
  page: TPage,
  column: string,
): Promise<TKeylessPrefix | null> {
  if (page.sort_by === 'created_at') return null;
  const groups = await groupsWalkedFor(database, criteria, column);
  const lead = await statusLeadOf(database, criteria, page, column);
  const unsized = { budget: lead + PREFIX_SEARCH_ENTRIES, rows: PREFIX_SEARCH_ROWS, groups };
  if (page.offset + page.limit <= KEYLESS_SIZED_FROM) return unsized;
  const density = await probeDensity(database, criteria, criteria.statuses, 'desc');
  if (!density) return unsized;
  const share = { share: density.share, oneIn: DENSE_ONE_IN };
  const size = await prefixSizeOf(database, criteria, page, column, share, groups, false);
  return size?.budget ? { budget: size.budget, rows: size.rows, groups } : unsized;
}

/**
 * The groups a walk of a sort index the modality group leads (modality, study description) reads: the
 * filter's (or every group) that may hold the search text (groupsHoldingText), null where that is all
 * of them or the column is another. "lumbar spine" by modality, descending, read 20,000 ultrasound
 * and nuclear medicine entries first, for none of its matches (12 ms), then collected them (420 ms).
 */
export async function groupsWalkedFor(
  database: TDatabase,
  criteria: TWorklistCriteria,
  column: string,
): Promise<TModality[] | null> {
  if (criteria.searchText === null || !GROUP_LED_SORT_COLUMNS.includes(column)) return null;
  const groups = criteria.modalities.length > 0 ? criteria.modalities : MODALITIES;
  const holding = await groupsHoldingText(database.db, {
    organisationId: criteria.scope.organisationId,
    searchText: criteria.searchText,
    groups,
  });
  return holding.length < groups.length ? holding : null;
}
