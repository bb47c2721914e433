// A worklist search with a modality filter whose text the filter makes rare: "chest" with MRI, "brain"
// with X-ray, "abdomen" with CT. Every other index finds the text's studies of every modality and
// each is read to be tested against the filter: an admin's tabs for "chest" with MRI over all dates
// read the 350,000 studies holding "chest" (740 ms at 1,000,000 studies) to find none; a radiologist's
// X-ray "abdomen" over all dates, 300 ms. The modality-keyed trigram index (migration 0041) keys each
// study's trigrams by its modality group, so such a search reads only the studies that hold both.
// It is chosen where the index's own statistics say those are few; a text the filter keeps common
// ("brain" with CT: 250,000 studies) keeps the indexes that stop at the page and the count's cap.
// It also keys each study's pairs of characters (migration 0043), for a text without trigram keys:
// "ct" with MRI and X-ray tested the groups' 500,000 studies for none (an admin's tabs, 330 ms).
// The same index tells which groups hold a text at all (groupsHoldingText, at the end), for a search
// sorted by a column whose sort index the group leads (modality, study description).
import { MODALITIES, type TModality } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';
import { estimateRows, foldedSearchText, keyStatsOf, pairsOf, trigramsOf } from './worklist-search-stats.ts';
import { facilityCountOf, facilityShareOf, firstArrivalHeld } from './worklist-held-figures.ts';
import { holdsSearchText } from './worklist-search-text.ts';

/**
 * The modality-keyed index is read when it is estimated to find at most this many candidates over
 * all dates (each one's row is then read to be tested: 2-3 µs a row), and at most a quarter of what
 * the index it replaces would find. A key the statistics do not list is estimated at half the rarest
 * they do (about 2,000 studies of 1,000,000): this bound lets such keys through.
 */
export const SEARCH_MODALITY_AT_MOST = 10_000;
const AT_MOST_SHARE = 4;

/**
 * The modality groups whose keys a search reads, or null to leave it to the other indexes: with a
 * modality filter and a text with keys (its trigrams, else its pairs of characters, as
 * ris_search_modality_query_keys chooses them), when the index's statistics estimate the studies
 * holding the text's keys within the filter's groups as few (SEARCH_MODALITY_AT_MOST), and as a
 * quarter at most of those holding them in any group (in the caller's facilities' share of the
 * organisation's, for a staff member's facility-keyed search by trigrams). The estimate of each
 * group is its rarest key's frequency in the index (a key the statistics do not list counts half the
 * rarest they do, as PostgreSQL's own estimate of such an array element); with no statistics yet (a
 * new database before ANALYZE) the other indexes serve.
 */
export async function searchModalitiesOf(
  db: TDbOrTx,
  search: {
    searchText: string;
    modalities: readonly TModality[];
    organisationId: string;
    /** How many facilities a staff member's facility-keyed search would read; null: the whole organisation. */
    facilityCount: number | null;
  },
): Promise<TModality[] | null> {
  const { modalities, facilityCount } = search;
  if (modalities.length === 0) return null;
  const keyed = await keyedCandidates(db, search.searchText);
  if (!keyed) return null;
  const inGroups = modalities.reduce((sum, modality) => sum + keyed.inGroup(modality), 0);
  // The facility-keyed index holds trigrams only: a staff member's text without them is otherwise read
  // by the organisation's pairs, or each study of the range tested.
  const staff = facilityCount !== null && keyed.byTrigrams;
  const share = staff ? await facilityShareOf(db, search.organisationId, facilityCount) : 1;
  return inGroups <= SEARCH_MODALITY_AT_MOST && inGroups * AT_MOST_SHARE <= keyed.inAnyGroup * share
    ? [...modalities]
    : null;
}

/**
 * The studies holding a text's keys (its trigrams, else its pairs of characters, as
 * ris_search_modality_query_keys chooses them), as the modality-keyed index's statistics estimate
 * them: per group, its rarest key's frequency (a key the statistics do not list counts half the
 * rarest they do, as PostgreSQL's own estimate of such an array element), and in any group. Null for
 * a text without keys or with no statistics yet (a new database before ANALYZE).
 */
async function keyedCandidates(db: TDbOrTx, searchText: string) {
  const folded = await foldedSearchText(db, searchText);
  const trigrams = trigramsOf(folded);
  const keys = trigrams.length > 0 ? trigrams : pairsOf(folded);
  if (keys.length === 0) return null;
  const stats = await keyStatsOf(db, 'studies_search_modality_idx');
  if (!stats) return null;
  const inGroup = (modality: TModality) =>
    estimateRows(
      stats,
      keys.map((key) => `${modality}:${key}`),
    );
  const inAnyGroup = MODALITIES.reduce((sum, modality) => sum + inGroup(modality), 0);
  // Whether each key is one the statistics list in some group: else the estimate is the unlisted
  // keys' default (a surname's 12,000 studies and a name's 20 alike, 1.5 % of 1,000,000).
  const listed = keys.every((key) => MODALITIES.some((modality) => stats.freqs.has(`${modality}:${key}`)));
  return { inGroup, inAnyGroup, byTrigrams: trigrams.length > 0, listed, rows: stats.rows };
}

/**
 * How many studies a keyed read of `searchText` over all dates finds (each one's row is then read
 * to be tested): the estimate of keyedCandidates in any group, times the caller's share of the
 * organisation's facilities for a text with trigrams (`facilityCount` of them, for the facility-keyed
 * index; null: the whole organisation). Null where no estimate is known.
 */
export async function keyedRowsOf(
  db: TDbOrTx,
  search: { searchText: string; organisationId: string; facilityCount: number | null },
): Promise<number | null> {
  const keyed = await keyedCandidates(db, search.searchText);
  if (!keyed) return null;
  // A text without trigrams is read by the organisation's pairs, whatever the caller's facilities.
  const { facilityCount } = search;
  const share =
    facilityCount === null || !keyed.byTrigrams
      ? 1
      : await facilityShareOf(db, search.organisationId, facilityCount);
  return keyed.inAnyGroup * share;
}

/**
 * The share of studies holding `searchText`'s keys (keyedCandidates in any group, of the rows the
 * statistics sampled), where the statistics list every key: null where one is unlisted (a rarer key,
 * whose frequency they do not know) or no estimate is known.
 */
export async function listedKeyedShareOf(db: TDbOrTx, searchText: string): Promise<number | null> {
  const keyed = await keyedCandidates(db, searchText);
  return keyed?.listed && keyed.rows > 0 ? Math.min(1, keyed.inAnyGroup / keyed.rows) : null;
}

const WEEK_MS = 7 * 86_400_000;

/**
 * How many studies the week-keyed read of `searchText` over `weeks` weeks of the whole organisation
 * finds: the estimate over all dates (keyedCandidates, in any group) times the weeks' share of the
 * organisation's archive, first arrival to `now` (a text spread evenly over time). Null where no
 * estimate is known.
 */
export async function weekKeyedRowsOf(
  db: TDbOrTx,
  search: { searchText: string; organisationId: string; weeks: number; now: Date },
): Promise<number | null> {
  const keyed = await keyedCandidates(db, search.searchText);
  const first = keyed && (await firstArrivalHeld(db, search.organisationId));
  if (!keyed || first === null) return null;
  const span = search.now.getTime() - first;
  return span <= 0 ? keyed.inAnyGroup : keyed.inAnyGroup * Math.min(1, (search.weeks * WEEK_MS) / span);
}

/**
 * Whether the caller's facilities hold fewer studies over all dates than the organisation over the
 * range's weeks, as if every facility received as many: then the facility keys find fewer rows to
 * check than the week keys (a radiologist at 5 of 100 facilities, over a month of a 13-week archive,
 * reads 2,400 rows instead of 4,000; over a month of 5 years the weeks win). Read from the
 * organisation's facility count and first arrival, held in memory.
 */
export async function fewerInFacilities(
  db: TDbOrTx,
  organisationId: string,
  { facilityCount, weekCount, now }: { facilityCount: number; weekCount: number; now: Date },
): Promise<boolean> {
  const facilities = await facilityCountOf(db, organisationId);
  const first = await firstArrivalHeld(db, organisationId);
  if (first === null || facilities === 0) return false;
  const archiveWeeks = Math.max(1, (now.getTime() - first) / WEEK_MS);
  return (facilityCount / facilities) * archiveWeeks < weekCount;
}

/**
 * How many studies a keyed read of `searchText` over `weeks` weeks finds for `facilityCount` of the
 * organisation's facilities: the fewer of the facility keys' (every date) and the week keys' (the
 * whole organisation's weeks), as the search chooses between them (fewerInFacilities). Null where
 * no estimate is known.
 */
export async function facilitiesWeekKeyedRowsOf(
  db: TDbOrTx,
  search: { searchText: string; organisationId: string; facilityCount: number; weeks: number; now: Date },
): Promise<number | null> {
  const byFacilities = await keyedRowsOf(db, search);
  const byWeeks = await weekKeyedRowsOf(db, search);
  return byFacilities === null || byWeeks === null ? null : Math.min(byFacilities, byWeeks);
}

/**
 * A group is probed for a text (groupsHoldingText) where the statistics estimate it this many times
 * fewer candidates than the group estimated most (and SEARCH_MODALITY_AT_MOST at most): a text some
 * groups hold and others not ("brain": 255,000 in CT, the others' keys unlisted, 3,000). A text every
 * group holds ("john": 6,000-13,000 in each) probes none, each probe finding a match (4 ms for none).
 */
const PROBED_GROUP_SHARE = 8;

/**
 * The groups of `groups` in which some study of the organisation may hold `searchText`: those the
 * modality-keyed index's statistics estimate many candidates in (PROBED_GROUP_SHARE, not read; a
 * probe of a group that holds many built the whole group's candidates first, 60 ms), and of the
 * others those whose keys find a match (one probe of the index each, the text's trigrams, else its
 * pairs). Every group with no statistics or keys. A walk of a sort index the group leads (modality,
 * study description) then skips the others' entries, which hold none of its matches: "lumbar spine",
 * which MRI studies alone hold, sorted by modality descending read every ultrasound and nuclear
 * medicine entry first, then its matches were collected (260-350 ms).
 */
export async function groupsHoldingText(
  db: TDbOrTx,
  search: { organisationId: string; searchText: string; groups: readonly TModality[] },
): Promise<TModality[]> {
  const { organisationId, searchText, groups } = search;
  const keyed = await keyedCandidates(db, searchText);
  if (!keyed) return [...groups];
  const most = Math.max(...groups.map((group) => keyed.inGroup(group)));
  const probedAtMost = Math.min(SEARCH_MODALITY_AT_MOST, most / PROBED_GROUP_SHARE);
  const probed = groups.filter((group) => keyed.inGroup(group) <= probedAtMost);
  if (probed.length === 0) return [...groups];
  const keys = sql`ris_search_modality_query_keys(${searchText}, g)`;
  const rows = await queryRows<{ group: TModality }>(
    db,
    sql`select g::text as group from unnest(${`{${probed.join(',')}}`}::modality_group[]) g
      where cardinality(${keys}) = 0 or exists (select 1 from studies
        where "studies"."organisation_id" = ${organisationId}::uuid
          and ris_search_modality_keys("studies"."search_text", "studies"."modality_group") @> ${keys}
          and ${holdsSearchText(searchText)})`,
  );
  const held = rows.map((row) => row.group);
  return groups.filter((group) => !probed.includes(group) || held.includes(group));
}
