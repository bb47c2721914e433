import {
  statusesOfGroup,
  STUDY_STATUSES,
  type TModality,
  type TPriorityTag,
  type TStudyStatus,
  type TWorklistFilters,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import { effectiveByUserIds, seesDeletedStudies, visibleStudies } from '../../../access/studies-scope.ts';
import type { TScope } from '../../../access/scope.ts';
import type { TDbOrTx } from '../../../db/client.ts';
import { oneOf } from '../../../db/one-of.ts';
import { AppError } from '../../../http/app-error.ts';
import { resolveCreatedRange } from './worklist-date-range.ts';
import { checkFacilityIds, checkUserIds } from './worklist-filter-checks.ts';
import { fewDigitGramsOf, type TGramKeys } from './worklist-search-grams.ts';
import {
  facilitiesWeekKeyedRowsOf,
  fewerInFacilities,
  keyedRowsOf,
  searchModalitiesOf,
  weekKeyedRowsOf,
} from './worklist-search-modality.ts';
import {
  keptFirst,
  rangeHoldsAtMost,
  rangeTestOf,
  SEARCH_IN_RANGE_AT_MOST,
} from './worklist-search-in-range.ts';
import { searchesOpen, WALK_DAYS_AT_MOST } from './worklist-search-open.ts';
import { foldedSearchText, pairKeysFor } from './worklist-search-stats.ts';
import { hasSearchKeys, searchTextConditions } from './worklist-search-text.ts';

/** The statuses every default list shows (the All tab; DELETED is in no tab). */
export const LISTED_STATUSES: readonly TStudyStatus[] = statusesOfGroup('ALL');

/** The worklist filters, checked against the caller's scope and resolved to instants. */
export type TWorklistCriteria = {
  scope: TScope;
  byUserIds: string[];
  /** Statuses GET /worklist lists: the ones asked for, else every status except DELETED. */
  statuses: readonly TStudyStatus[];
  /** Statuses GET /worklist/status/count counts: DELETED too for admins. */
  countedStatuses: readonly TStudyStatus[];
  modalities: TModality[];
  /** Studies tagged with one of these (an untagged study matches none); empty: any tag or none. */
  priorityTags: TPriorityTag[];
  facilityIds: string[];
  /** created_at ≥ from. */
  from: Date | null;
  /** created_at < to (exclusive) or ≤ to (inclusive). */
  to: { at: Date; inclusive: boolean } | null;
  /** The search text as typed (trimmed), or null: a substring of search_text once folded. */
  searchText: string | null;
  /**
   * Whether the search text, folded as search_text is (lower-cased, unaccented), holds a trigram the
   * keyed indexes know: three ASCII letters or digits in a row (hasSearchKeys). "Zsó" and "Dvoř" do
   * once folded ("zso", "dvor"), so they are found by their keys as "Zso" is. False without a search.
   */
  searchKeyed: boolean;
  /**
   * A search text without trigram keys: its keys in the pair-keyed index (pairKeysFor: its pairs of
   * characters, else its single characters), which finds its candidates; empty otherwise, and for a
   * text without such keys (digits and spaces), which no index finds.
   */
  searchPairKeys: readonly string[];
  /**
   * With a search over a bounded range of at most MAX_SEARCH_WEEKS weeks whose text has a trigram
   * (three ASCII letters or digits in a row): the weeks of created_at the range covers, for the
   * week-keyed trigram index (migration 0005). Null: the plain trigram index serves.
   */
  searchWeeks: number[] | null;
  /**
   * With a search by a caller who sees at most MAX_SEARCH_FACILITIES facilities (facilitiesOf), whose
   * text has a trigram, over all dates, more than MAX_SEARCH_WEEKS weeks, or weeks holding more
   * studies than those facilities do (fewerInFacilities): those facilities, for the facility-keyed
   * trigram index (migration 0030; searchWeeks is then null). Null: another index serves.
   */
  searchFacilities: readonly string[] | null;
  /**
   * With a search whose text has a trigram, by a caller whose range holds at most
   * SEARCH_IN_RANGE_AT_MOST studies under the other filters (more where the text's keys find many more:
   * rangeTestOf): each one's text is tested, no index finds candidates (searchWeeks and
   * searchFacilities are then null).
   */
  searchInRange: boolean;
  /** With searchInRange: the range's studies found by the assignee index alone first (keptFirst). */
  searchKeptFirst: boolean;
  /**
   * With a search walked in runs of weeks by the whole organisation (worklist-search-walk.ts) over more
   * than the walked days, under a filter that keeps few of the newest days' studies where the week
   * keys find many times as many (rangeTestOf): each run's studies are tested rather than found by
   * the week keys.
   */
  searchRunsTested: boolean;
  /**
   * With a search in open studies' tabs only (no FINAL, no DELETED) whose text few open studies hold
   * (worklist-search-open.ts): the open studies' index finds the candidates (migration 0042; the
   * other search fields are then null or false).
   */
  searchOpen: boolean;
  /**
   * With a search whose text has a trigram and a modality filter that makes it rare (estimated few
   * studies hold both: worklist-search-modality.ts): the filter's groups, for the modality-keyed
   * trigram index (migration 0041; searchWeeks and searchFacilities are then null).
   */
  searchModalities: readonly TModality[] | null;
  /**
   * With a search whose text holds grams (five characters in a row holding a digit: an identifier)
   * that few studies hold (worklist-search-grams.ts): its grams, for the digit-gram index (migration
   * 0046; the other search fields are then null or false).
   */
  searchGrams: TGramKeys | null;
  /** What the date filter asked for (the preset and time zone, or the custom bounds), for cache keys. */
  dateKey: string;
  /** The application clock's instant the filters were resolved at (presets end there). */
  now: Date;
};

/** A week of created_at as ris_search_week() numbers it: whole weeks since the Unix epoch. */
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
export const searchWeekOf = (at: Date): number => Math.floor(at.getTime() / WEEK_MS);
/** The first instant of a week as ris_search_week() numbers them. */
export const searchWeekStart = (week: number): Date => new Date(week * WEEK_MS);

/**
 * Up to this many weeks a search reads the week-keyed index (one index scan per week); a longer or
 * open range reads the plain trigram index, which finds the text's studies of every week.
 */
export const MAX_SEARCH_WEEKS = 16;

/**
 * Up to this many facilities a search over all dates reads the facility-keyed index (one index scan
 * per facility); a caller who sees more (or the whole organisation) reads the plain trigram index.
 */
export const MAX_SEARCH_FACILITIES = 32;

/**
 * The weeks to search, or null for the plain index. The text must have keys (searchKeyed: three ASCII
 * letters or digits in a row once folded, as the query key functions fold it), so the searched keys
 * are never empty (an empty key list would match every row of the index).
 */
function searchWeeksOf(keyed: boolean, range: Pick<TWorklistCriteria, 'from' | 'to'>): number[] | null {
  if (!range.from || !range.to || !keyed) return null;
  const first = searchWeekOf(range.from);
  const last = searchWeekOf(range.to.at);
  if (last - first + 1 > MAX_SEARCH_WEEKS) return null;
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

/**
 * Whether the caller's tabs count statuses no tab lists (an admin's deleted studies, counted apart
 * from a search's cap).
 */
export const countsUnlisted = (criteria: Pick<TWorklistCriteria, 'countedStatuses'>): boolean =>
  !criteria.countedStatuses.every((status) => LISTED_STATUSES.includes(status));

/**
 * Whether a search's own index finds its few candidates, each read and tested, whatever the range and
 * the sort: the open studies' (searchOpen), the modality-keyed (searchModalities) or the digit-gram
 * one (searchGrams). Such a search is never walked nor counted up to a cap.
 */
export const findsFewByKeys = (
  criteria: Pick<TWorklistCriteria, 'searchOpen' | 'searchModalities' | 'searchGrams'>,
): boolean => criteria.searchOpen || criteria.searchModalities !== null || criteria.searchGrams !== null;

/** Whether a filter but the dates keeps part of the studies: a status it does not read, a modality, a priority. */
export function keepsPartOf(criteria: TWorklistCriteria, read: readonly TStudyStatus[]): boolean {
  return (
    !LISTED_STATUSES.every((status) => read.includes(status)) ||
    criteria.modalities.length > 0 ||
    criteria.priorityTags.length > 0
  );
}

/** Checks the filters against the caller's scope and resolves dates; throws 4xx naming the field. */
export async function resolveWorklistCriteria(
  db: TDbOrTx,
  scope: TScope,
  filters: TWorklistFilters,
  now: Date,
  options: {
    /** false: no keyed search index is chosen (searchWeeks and searchFacilities null; the report finder's). */
    keyedSearch: boolean;
    /**
     * What the request reads: `page`, the statuses asked for (GET /worklist); `tabs`, every counted
     * status whatever the filter (GET /worklist/status/count). The search's index is chosen for them.
     */
    reads?: 'page' | 'tabs';
  } = { keyedSearch: true },
): Promise<TWorklistCriteria> {
  const seesDeleted = seesDeletedStudies(scope.principal);
  const statuses = [...new Set(filters.statuses)];
  if (statuses.includes('DELETED') && !seesDeleted) {
    throw new AppError('FORBIDDEN', 'statuses: only admins may list deleted studies', {
      fields: [{ field: 'statuses', in: 'querystring', message: 'only admins may list deleted studies' }],
    });
  }
  const range = resolveCreatedRange(filters, now);
  const facilityIds = [...new Set(filters.facility_ids)];
  const byUserIds = effectiveByUserIds(scope.principal, filters.by_user_ids);
  await checkFacilityIds(db, scope, facilityIds);
  await checkUserIds(db, scope, byUserIds);
  const search = filters.search?.trim() ?? '';
  // ASCII text is folded here; other text by PostgreSQL, once, and held (foldedSearchText).
  const folded = search === '' ? '' : await foldedSearchText(db, search);
  const keyed = hasSearchKeys(folded);
  const searchWeeks = searchWeeksOf(keyed, range);
  const criteria: TWorklistCriteria = {
    scope,
    byUserIds,
    statuses: statuses.length > 0 ? statuses : LISTED_STATUSES,
    countedStatuses: seesDeleted ? STUDY_STATUSES : LISTED_STATUSES,
    modalities: [...new Set(filters.modalities)],
    priorityTags: [...new Set(filters.priority_tags)],
    facilityIds,
    ...range,
    searchText: search === '' ? null : search,
    searchKeyed: keyed,
    searchPairKeys: search !== '' && !keyed ? await pairKeysFor(db, search) : [],
    searchWeeks: options.keyedSearch ? searchWeeks : null,
    searchFacilities: null,
    searchInRange: false,
    searchKeptFirst: false,
    searchRunsTested: false,
    searchOpen: false,
    searchModalities: null,
    searchGrams: null,
    now,
  };
  if (search === '' || !options.keyedSearch) return criteria;
  const read = options.reads === 'tabs' ? criteria.countedStatuses : criteria.statuses;
  const unsearched = { ...criteria, searchText: null, searchWeeks: null, searchFacilities: null };
  const whereFrom = (from: Date | null) => worklistWhere(db, { ...unsearched, from }, read);
  const facilities = facilitiesOf(criteria);
  const assigneeFirst = keptFirst(criteria, facilities);
  const inRange = { ...criteria, searchWeeks: null, searchInRange: true, searchKeptFirst: assigneeFirst };
  // An identifier few studies hold: the digit-gram index finds them, unless the range holds fewer.
  const grams = await fewDigitGramsOf(db, folded);
  if (grams) {
    const few = Math.floor(Math.min(grams.rows, SEARCH_IN_RANGE_AT_MOST));
    if (await rangeHoldsAtMost(db, whereFrom(criteria.from), few)) return inRange;
    return { ...criteria, searchWeeks: null, searchGrams: grams.keys };
  }
  // A status tab of open studies (Ordered, In progress) over all dates holds a caller's working set,
  // a few hundred studies, where the text's keys may find tens of thousands of any status.
  const few = facilities !== null && facilities.length > 0 && facilities.length <= MAX_SEARCH_FACILITIES;
  const searchModalities = await searchModalitiesOf(db, {
    searchText: search,
    modalities: criteria.modalities,
    organisationId: scope.organisationId,
    facilityCount: few ? facilities.length : null,
  });
  const wholeOrganisation = facilities === null && byUserIds.length === 0;
  const reader = {
    wholeOrganisation,
    days: range.from === null ? null : ((range.to?.at ?? now).getTime() - range.from.getTime()) / 86_400_000,
  };
  // Open statuses alone (Ordered, In progress) whose open studies' keys find few (statistics in memory).
  const open = options.reads !== 'tabs' && (await searchesOpen(db, search, criteria.statuses, reader));
  // The week keys' estimate over `weeks` weeks for the whole organisation where a filter keeps part
  // of its studies (weekKeyedRowsOf), unless the open studies' keys serve (an admin's month of Ordered
  // "bone": 6 ms, 15 testing its 6,400) or the modality-keyed index finds the text's few studies of
  // the filter's groups.
  const weekKeyed = (weeks: number) =>
    wholeOrganisation && !open && searchModalities === null && keepsPartOf(criteria, read)
      ? weekKeyedRowsOf(db, { searchText: search, organisationId: scope.organisationId, weeks, now })
      : Promise.resolve(null);
  // The keys' estimate over all dates (or more weeks than the week keys serve), or over the range's weeks.
  const keyedRows = (longer: boolean) => {
    if (searchModalities !== null) return Promise.resolve(null);
    const keyed = { searchText: search, organisationId: scope.organisationId };
    // An admin's few facilities over the range's weeks: the candidates of the keys read (an admin's
    // week of "brain" in 10 facilities: 25,000 for 1,900), so a short range's own rows are tested
    // (staff's dense walk reads fewer: a reporter's month of "brain" 14.6 ms walked, 25.4 tested).
    if (searchWeeks !== null && few && criteria.searchKeyed && countsUnlisted(criteria)) {
      return facilitiesWeekKeyedRowsOf(db, {
        ...keyed,
        facilityCount: facilities.length,
        weeks: searchWeeks.length,
        now,
      });
    }
    if (searchWeeks !== null) return weekKeyed(searchWeeks.length);
    const facilityCount = few ? facilities.length : null;
    return longer ? keyedRowsOf(db, { ...keyed, facilityCount }) : Promise.resolve(null);
  };
  // … over the walked days, where the organisation's walk in runs of weeks may test its runs.
  const walkedKeyedRows = () =>
    criteria.searchKeyed ? weekKeyed(WALK_DAYS_AT_MOST / 7) : Promise.resolve(null);
  const test = await rangeTestOf(db, criteria, whereFrom, keyedRows, walkedKeyedRows);
  if (test === 'range') return inRange;
  if (test === 'runs') return { ...criteria, searchRunsTested: true };
  if (open) return { ...criteria, searchWeeks: null, searchFacilities: null, searchOpen: true };
  if (searchModalities) return { ...criteria, searchWeeks: null, searchModalities };
  if (!few || !criteria.searchKeyed) return criteria;
  if (searchWeeks) {
    const counts = { facilityCount: facilities.length, weekCount: searchWeeks.length, now };
    if (!(await fewerInFacilities(db, scope.organisationId, counts))) return criteria;
  }
  return { ...criteria, searchWeeks: null, searchFacilities: facilities };
}

/**
 * The WHERE clause of a worklist query: the caller's visibility, then each filter. `statuses` is
 * always an explicit list, so the (…, status, created_at) indexes apply and counts can be read from
 * the index alone. Written as SQL text with one parameter per filter (Drizzle's operators cost more
 * to build than the query takes to run on these hot endpoints). `bounds` false leaves out the date
 * range's lower (`from`) or upper (`to`) bound (the count cache's window edges are read that way).
 */
export function worklistWhere(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
  bounds: { from: boolean; to: boolean } = { from: true, to: true },
): SQL {
  const { scope, facilityIds } = criteria;
  // Staff's facility_ids lie within their facilities (checked): the filter is the visible set, said
  // once (the same list twice made PostgreSQL square its selectivity and misplan the page).
  const narrowed = narrowsScope(criteria);
  const conditions: SQL[] = [visibleStudies(narrowed ? { ...scope, facilityIds } : scope)];
  if (facilityIds.length > 0 && !narrowed) {
    conditions.push(oneOf('"studies"."facility_id"', facilityIds, 'uuid'));
  }
  conditions.push(worklistFilters(db, criteria, statuses, bounds));
  if (criteria.searchText !== null && criteria.searchInRange && criteria.searchKeptFirst) {
    const unsearched = { ...criteria, searchText: null, searchKeptFirst: false };
    const kept = worklistWhere(db, unsearched, statuses, bounds);
    conditions.push(sql`"studies"."id" in (select "studies"."id" from studies where ${kept} offset 0)`);
  }
  return sql.join(conditions, sql.raw(' and '));
}

/** Whether facility_ids narrows a staff member's facilities (rather than filtering within them). */
function narrowsScope({ scope, facilityIds }: TWorklistCriteria): boolean {
  return facilityIds.length > 0 && !scope.allFacilities && scope.principal.role !== 'REFERRING_PHYSICIAN';
}

/**
 * The facilities a study must lie in under these criteria (the caller's, narrowed by facility_ids),
 * or null for any of the organisation's: worklistWhere's facility conditions, for a table that
 * carries a copy of the study's facility (reports: the report finder). A referring physician's
 * visibility is by referral, not facility: visibleStudies says it.
 */
export function facilitiesOf(criteria: TWorklistCriteria): readonly string[] | null {
  const { scope, facilityIds } = criteria;
  if (narrowsScope(criteria)) return facilityIds;
  if (facilityIds.length > 0) return facilityIds;
  if (scope.allFacilities || scope.principal.role === 'REFERRING_PHYSICIAN') return null;
  return scope.facilityIds;
}

/** The range's bounds (as `bounds` allows) on an arrival column; `unindexed`: no index serves them. */
export function dateRangeOn(
  column: '"studies"."created_at"' | '"reports"."study_created_at"',
  criteria: Pick<TWorklistCriteria, 'from' | 'to'>,
  bounds: { from: boolean; to: boolean } = { from: true, to: true },
  unindexed = false,
): SQL[] {
  const conditions: SQL[] = [];
  const arrival = sql.raw(unindexed ? `(${column} + interval '0 s')` : column);
  if (criteria.from && bounds.from)
    conditions.push(sql`${arrival} >= ${criteria.from.toISOString()}::timestamptz`);
  if (criteria.to && bounds.to) {
    const at = criteria.to.at.toISOString();
    conditions.push(
      criteria.to.inclusive ? sql`${arrival} <= ${at}::timestamptz` : sql`${arrival} < ${at}::timestamptz`,
    );
  }
  return conditions;
}

/**
 * worklistWhere's filters without the caller's visibility: statuses, radiologists, modality groups,
 * priority tags, the date range (as `bounds` allows) and the patient/study text.
 */
export function worklistFilters(
  db: TDbOrTx,
  criteria: TWorklistCriteria,
  statuses: readonly TStudyStatus[],
  bounds: { from: boolean; to: boolean } = { from: true, to: true },
): SQL {
  const conditions: SQL[] = [oneOf('"studies"."status"', statuses, 'study_status')];
  if (criteria.byUserIds.length > 0) {
    conditions.push(oneOf('"studies"."last_assigned_user_id"', criteria.byUserIds, 'uuid'));
  }
  if (criteria.modalities.length > 0) {
    conditions.push(oneOf('"studies"."modality_group"', criteria.modalities, 'modality_group'));
  }
  if (criteria.priorityTags.length > 0) {
    conditions.push(oneOf('"studies"."priority_tag"', criteria.priorityTags, 'priority_tag'));
  }
  conditions.push(...dateRangeOn('"studies"."created_at"', criteria, bounds));
  conditions.push(...searchTextConditions(criteria, bounds));
  return sql.join(conditions, sql.raw(' and '));
}
