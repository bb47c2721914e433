// A worklist search in the open studies' tabs (Ordered, In progress): statuses that are neither FINAL
// nor DELETED. Those studies are a group's working set, a few percent of the archive (58,000 of
// 1,000,000 in the bench), where a text's keys in the other indexes find its studies of every status,
// each read to be tested against the tab: an admin's Ordered tab of "bone" over all dates read
// 13,000 studies in runs of weeks for 660 matches (250 ms). The open studies' own index (migration
// 0042) holds their trigrams and pairs of characters, so such a search reads only the open studies
// holding the text. It is chosen where the index's statistics say those are few; a text most open
// studies hold ("MRN01") keeps the walks that stop at the page and the count's cap.
import { STUDY_STATUSES, type TStudyStatus } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { estimateRows, foldedSearchText, keyStatsOf, pairsOf, trigramsOf } from './worklist-search-stats.ts';

/**
 * A dense search is walked over at most this many days of its range (worklist-dense-search.ts): a
 * walk that does not reach the count's cap there leaves the search to the keyed indexes.
 */
export const WALK_DAYS_AT_MOST = 31;

/**
 * The open studies' index is read when it is estimated to find at most this many candidates. Each
 * one's row is then read to be tested, about 1 µs a row (open studies are recent, their rows lie
 * together in the table), over all dates whatever the range: the other indexes read the range's
 * weeks only, and a walk in arrival order stops at the count's cap (an admin's In progress tab of
 * "brain" today: 14,600 candidates read in 25 ms, walked in 9).
 */
export const SEARCH_OPEN_AT_MOST = 5_000;
/**
 * … and at most this many (every open study of the bench's organisation) for a caller limited to
 * facilities or to their own studies over more than WALK_DAYS_AT_MOST days: their walk meets few
 * matches, does not reach the cap, and the facility-keyed index then reads their facilities' every
 * study holding the text, of any status (a radiologist's In progress tab of "MRN01" over all dates:
 * 170 ms; 23-35 ms from 29,000 open candidates).
 */
export const SEARCH_OPEN_LONG_STAFF_AT_MOST = 60_000;

/** The statuses the open studies' index holds. */
export const OPEN_STATUSES: readonly TStudyStatus[] = STUDY_STATUSES.filter(
  (status) => status !== 'FINAL' && status !== 'DELETED',
);

/**
 * The index's predicate, written as the index writes it: PostgreSQL then proves it in any plan (a
 * generic one too, whose statuses are a parameter it cannot look into).
 */
export const OPEN_STUDY = sql.raw(`"studies"."status" not in ('FINAL', 'DELETED')`);

/**
 * Whether a search reading `statuses` (open ones only) finds its candidates in the open studies'
 * index: when the index's statistics estimate the open studies holding the text's keys (its
 * trigrams, else its pairs) as few (SEARCH_OPEN_AT_MOST, or SEARCH_OPEN_LONG_STAFF_AT_MOST). A text
 * with neither key, or a database without statistics yet, leaves it to the other indexes.
 */
export async function searchesOpen(
  db: TDbOrTx,
  searchText: string,
  statuses: readonly TStudyStatus[],
  reader: {
    /** The caller sees the whole organisation (no facility list, no assignee). */
    wholeOrganisation: boolean;
    /** The range's days; null: open at its start. */
    days: number | null;
  },
): Promise<boolean> {
  if (statuses.length === 0 || !statuses.every((status) => OPEN_STATUSES.includes(status))) return false;
  const folded = await foldedSearchText(db, searchText);
  const trigrams = trigramsOf(folded);
  const keys = trigrams.length > 0 ? trigrams : pairsOf(folded);
  if (keys.length === 0) return false;
  const stats = await keyStatsOf(db, 'studies_search_open_idx');
  const long = reader.days === null || reader.days > WALK_DAYS_AT_MOST;
  const atMost = !reader.wholeOrganisation && long ? SEARCH_OPEN_LONG_STAFF_AT_MOST : SEARCH_OPEN_AT_MOST;
  return stats !== null && estimateRows(stats, keys) <= atMost;
}
