// The conditions of a worklist search: which index finds a text's candidates (the digit-gram one for
// an identifier, the open studies' one, the week-, modality- or facility-keyed trigram indexes, the
// pair-keyed one for a text without trigram keys, or none when each row of a small range is tested),
// and the substring test that decides every match.
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { containsFolded } from '../../../db/text-search.ts';
import type { TWorklistCriteria } from './worklist-criteria.ts';
import { coveringDigitGramsOf, holdsDigitGrams } from './worklist-search-grams.ts';
import { foldedSearchText } from './worklist-search-stats.ts';
import { OPEN_STUDY } from './worklist-search-open.ts';

/**
 * Whether a search text, folded as search_text is (foldedSearchText), holds a trigram the keyed indexes
 * know: three ASCII letters or digits in a row (the criteria's searchKeyed).
 */
export const hasSearchKeys = (term: string): boolean => /[A-Za-z0-9]{3}/.test(term);

/**
 * The substring test that decides a search's every match: the study's lower-cased, unaccented text
 * (search_text) holds the searched text, normalised the same way. strpos, which no trigram index
 * serves, so each index that finds candidates is chosen on its own. The text is normalised once, in
 * a subquery: a generic plan (worklist-dense-search.ts) otherwise ran unaccent on every row tested
 * (4.9 µs a row instead of 2.8).
 */
export function holdsSearchText(searchText: string): SQL {
  return sql`strpos("studies"."search_text", (select lower(ris_unaccent(${searchText})))) > 0`;
}

/**
 * The studies holding `keys` of the week-keyed index (migration 0005; its keys are a week's number,
 * a colon, and a trigram or digit gram).
 */
export function holdsWeekKeys(keys: SQL): SQL {
  return sql`ris_search_week_keys("studies"."search_text", "studies"."created_at") @> ${keys}`;
}

/**
 * A search text's keys in the week `week` (an SQL expression): ris_search_query_keys', made once
 * (in week 0, its prefix "0:" replaced by the week's). Made for each week, they cost 0.18 ms a week
 * to plan.
 */
export function weekKeysOf(searchText: string, week: SQL): SQL {
  return sql`array(select ${week}::text || ':' || substr(k, 3) from unnest(ris_search_query_keys(${searchText}, 0)) k)`;
}

/**
 * One scan of a keyed trigram index per key value (`keys` @> `queryKeys`(text, value)), ORed, and the
 * substring test that decides every match.
 */
function keyedScans(keys: string, queryKeys: string, values: readonly SQL[], searchText: string): SQL[] {
  const scans = values.map(
    (value) => sql`${sql.raw(keys)} @> ${sql.raw(queryKeys)}(${searchText}, ${value})`,
  );
  return [sql`(${sql.join(scans, sql.raw(' or '))})`, holdsSearchText(searchText)];
}

type TSearchCriteria = Pick<
  TWorklistCriteria,
  | 'searchText'
  | 'searchKeyed'
  | 'searchPairKeys'
  | 'searchWeeks'
  | 'searchInRange'
  | 'searchOpen'
  | 'searchModalities'
  | 'searchFacilities'
  | 'searchGrams'
>;

/**
 * Which index finds a search's candidates under `criteria` (resolveWorklistCriteria chose them), in
 * searchTextConditions' order; `plain`: the plain trigram index, as no other applies. Null without a
 * search text.
 */
export function searchFormOf(criteria: TSearchCriteria, bounds: { from: boolean; to: boolean }) {
  if (criteria.searchText === null) return null;
  if (criteria.searchInRange) return 'inRange';
  if (criteria.searchGrams) return 'grams';
  if (criteria.searchOpen) return 'open';
  if (criteria.searchWeeks && bounds.from && bounds.to) return 'weeks';
  if (criteria.searchModalities) return 'modalities';
  if (criteria.searchFacilities) return 'facilities';
  if (!criteria.searchKeyed) return 'pairs';
  return 'plain';
}

/**
 * A search whose matches are collected (each one read, then all sorted: listWorklistJson) that the
 * plain trigram index would find (searchFormOf): found by its digit grams instead when they cover its
 * text (coveringDigitGramsOf), however many studies hold them. An admin's "A0003" over all dates by
 * study date read 165,000 candidates on 34,800 table pages (320-490 ms); its one gram finds its
 * 100,000 studies on 4,500. The gram index's matches are exact (no recheck of its keys); strpos
 * tests each text. Not for a search walked in the sort's order (a LIMIT, where the plan is chosen
 * on estimates): only a collected one, whose every match is read either way.
 */
export async function collectedByGrams<TCriteria extends TSearchCriteria>(
  db: TDbOrTx,
  criteria: TCriteria,
): Promise<TCriteria> {
  if (criteria.searchText === null || searchFormOf(criteria, { from: true, to: true }) !== 'plain') {
    return criteria;
  }
  const grams = coveringDigitGramsOf(await foldedSearchText(db, criteria.searchText));
  return grams === null ? criteria : { ...criteria, searchWeeks: null, searchGrams: grams };
}

/**
 * A search's conditions on `studies` under `criteria` (none without a search text), the index that
 * finds its candidates chosen by the criteria (resolveWorklistCriteria). `bounds`: which of the
 * range's bounds the caller's query applies (the week keys need both).
 */
export function searchTextConditions(
  criteria: TSearchCriteria,
  bounds: { from: boolean; to: boolean },
): SQL[] {
  const { searchText, searchWeeks } = criteria;
  if (searchText === null) return [];
  switch (searchFormOf(criteria, bounds)) {
    case 'inRange':
      // Few studies under the other filters (searchInRange): their indexes find them, each one's text
      // is tested. strpos, which no trigram index serves, so none is chosen on estimates.
      return [holdsSearchText(searchText)];
    case 'grams':
      // An identifier few studies hold (worklist-search-grams.ts), or a collected search's identifier
      // its grams cover (collectedByGrams): the digit-gram index finds the studies holding each of
      // its grams.
      return criteria.searchGrams ? [holdsDigitGrams(criteria.searchGrams), holdsSearchText(searchText)] : [];
    case 'open':
      // An open studies' tab (worklist-search-open.ts): their own index finds those holding the text's
      // keys (its trigrams, else its pairs), under the index's predicate written as it writes it.
      return [
        OPEN_STUDY,
        sql`ris_search_open_keys("studies"."search_text") @> ris_search_open_query_keys(${searchText})`,
        holdsSearchText(searchText),
      ];
    case 'weeks': {
      // Within the range's weeks only (both bounds apply, so every match lies in one of them): one scan
      // of the week-keyed index per week, ORed, finds the rows of those weeks with the trigrams. The
      // substring test is strpos, which the plain trigram index cannot serve: it would otherwise be
      // chosen on estimates and find the text's rows of every week again.
      const scans = (searchWeeks ?? []).map((week) =>
        holdsWeekKeys(sql`ris_search_query_keys(${searchText}, ${week}::int)`),
      );
      return [sql`(${sql.join(scans, sql.raw(' or '))})`, holdsSearchText(searchText)];
    }
    case 'modalities':
      // Within the filter's modality groups, which few studies holding the text lie in: one scan of the
      // modality-keyed index per group, ORed (as the facility keys below), by the text's trigrams, else
      // its pairs of characters.
      return keyedScans(
        'ris_search_modality_keys("studies"."search_text", "studies"."modality_group")',
        'ris_search_modality_query_keys',
        (criteria.searchModalities ?? []).map((modality) => sql`${modality}::modality_group`),
        searchText,
      );
    case 'facilities':
      // Within the caller's few facilities (worklistWhere says them: every match lies in one): one scan
      // of the facility-keyed index per facility, ORed, finds those facilities' rows with the trigrams.
      return keyedScans(
        'ris_search_facility_keys("studies"."search_text", "studies"."facility_id")',
        'ris_search_facility_query_keys',
        (criteria.searchFacilities ?? []).map((facility) => sql`${facility}::uuid`),
        searchText,
      );
    case 'pairs':
      // A text the trigram indexes do not know (fewer than three ASCII letters or digits in a row once
      // folded): the plain one would read all of itself for it (0.6 s at 1,000,000 studies), so the
      // substring test is strpos, which it cannot serve. A study holding the text holds each of its
      // pairs of characters (or, for a text without pairs such as "q", its single characters), which
      // the pair-keyed index finds (migrations 0031, 0045): PostgreSQL chooses it for a rare text (the
      // keys' frequencies are in the index's statistics) and reads the range in order for a common one.
      return criteria.searchPairKeys.length > 0
        ? [
            holdsSearchText(searchText),
            sql`ris_search_pair_keys("studies"."search_text") @> ris_search_query_pairs(${searchText})`,
          ]
        : [holdsSearchText(searchText)];
    default:
      return [containsFolded(sql`"studies"."search_text"`, searchText)];
  }
}
