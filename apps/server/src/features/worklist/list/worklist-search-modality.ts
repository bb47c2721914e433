// A worklist search with a modality filter whose text the filter makes rare: "chest" with MRI, "brain"
// with X-ray, "abdomen" with CT. Every other index finds the text's studies of every modality and
// each is read to be tested against the filter: an admin's tabs for "chest" with MRI over all dates
// read the 350,000 studies holding "chest" (740 ms at 1,000,000 studies) to find none; a radiologist's
// X-ray "abdomen" over all dates, 300 ms. The modality-keyed trigram index (migration 0041) keys each
// study's trigrams by its modality group, so such a search reads only the studies that hold both.
// It is chosen where the index's own statistics say those are few; a text the filter keeps common
// ("brain" with CT: 250,000 studies) keeps the indexes that stop at the page and the count's cap.
import { MODALITIES, type TModality } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';

/**
 * The modality-keyed index is read when it is estimated to find at most this many candidates over
 * all dates (each one's row is then read to be tested: 2-3 µs a row), and at most a quarter of what
 * the index it replaces would find. A key the statistics do not list is estimated at half the rarest
 * they do (about 2,000 studies of 1,000,000): this bound lets such keys through.
 */
export const SEARCH_MODALITY_AT_MOST = 10_000;
const AT_MOST_SHARE = 4;

/** The index's key frequencies (pg_stats), read at most once per STATS_MAX_AGE_MS per database. */
type TKeyStats = {
  freqs: ReadonlyMap<string, number>;
  /** The estimate of a key the statistics do not list: half the rarest listed one's frequency. */
  unlisted: number;
  studies: number;
  readAt: number;
};

/**
 * The statistics change when ANALYZE runs (autovacuum, after a tenth of the table changed): read
 * again after this long. Reading them took 5 ms of PostgreSQL's CPU, more than the searches it decides.
 */
const STATS_MAX_AGE_MS = 10 * 60_000;
const keyStats = new WeakMap<object, Promise<TKeyStats | null>>();
const facilityCounts = new WeakMap<object, Map<string, { count: number; readAt: number }>>();

async function readKeyStats(db: TDbOrTx): Promise<TKeyStats | null> {
  const [row] = await queryRows<{ elems: string[]; freqs: number[]; studies: number }>(
    db,
    sql`select most_common_elems::text::text[] as elems, most_common_elem_freqs::float8[] as freqs,
        (select greatest(reltuples, 0) from pg_class where oid = 'studies'::regclass)::float8 as studies
      from pg_stats where schemaname = current_schema() and tablename = 'studies_search_modality_idx'
        and most_common_elems is not null`,
  );
  if (!row) return null;
  const freqs = new Map(row.elems.map((key, i) => [key, row.freqs[i] ?? 0]));
  const unlisted = (row.freqs[row.elems.length] ?? 0) / 2;
  return { freqs, unlisted, studies: row.studies, readAt: Date.now() };
}

/** The key statistics, from memory while fresh (one read for the requests that find them stale together). */
async function statsOf(db: TDbOrTx): Promise<TKeyStats | null> {
  const held = keyStats.get(db);
  if (held) {
    const stats = await held;
    if (stats && Date.now() - stats.readAt < STATS_MAX_AGE_MS) return stats;
    // Another request found them stale first and is reading them again.
    const next = keyStats.get(db);
    if (next && next !== held) return next;
  }
  const reading = readKeyStats(db);
  keyStats.set(db, reading);
  reading.catch(() => keyStats.delete(db));
  return reading;
}

/** How many facilities the organisation has, from memory for STATS_MAX_AGE_MS. */
async function facilityCountOf(db: TDbOrTx, organisationId: string): Promise<number> {
  const counts = facilityCounts.get(db) ?? new Map<string, { count: number; readAt: number }>();
  facilityCounts.set(db, counts);
  const held = counts.get(organisationId);
  if (held && Date.now() - held.readAt < STATS_MAX_AGE_MS) return held.count;
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from facilities where organisation_id = ${organisationId}::uuid`,
  );
  const count = row?.count ?? 0;
  counts.set(organisationId, { count, readAt: Date.now() });
  return count;
}

/**
 * A searched text's trigram keys as ris_search_modality_query_keys makes them, without the group:
 * each three ASCII letters or digits in a row of the text folded. Folded here by Unicode
 * decomposition, which differs from ris_unaccent for a few letters (ø, ß): an estimate only, the
 * statement's own keys decide the matches.
 */
function trigramsOf(text: string): string[] {
  const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= folded.length; i++) {
    const trigram = folded.slice(i, i + 3);
    if (/^[a-z0-9]{3}$/.test(trigram)) trigrams.add(trigram);
  }
  return [...trigrams];
}

/**
 * The modality groups whose keys a search reads, or null to leave it to the other indexes: with a
 * modality filter and a text the trigram keys know, when the index's statistics estimate the studies
 * holding the text's keys within the filter's groups as few (SEARCH_MODALITY_AT_MOST), and as a
 * quarter at most of those holding them in any group (in the caller's facilities' share of the
 * organisation's, for a staff member's facility-keyed search). The estimate of each group is its
 * rarest key's frequency in the index (a key the statistics do not list counts half the rarest they
 * do, as PostgreSQL's own estimate of such an array element); with no statistics yet (a new database
 * before ANALYZE) the other indexes serve.
 */
export async function searchModalitiesOf(
  db: TDbOrTx,
  search: {
    /** A text with trigram keys (hasSearchKeys). */
    searchText: string;
    modalities: readonly TModality[];
    organisationId: string;
    /** How many facilities a staff member's facility-keyed search would read; null: the whole organisation. */
    facilityCount: number | null;
  },
): Promise<TModality[] | null> {
  const { modalities, facilityCount } = search;
  const trigrams = trigramsOf(search.searchText);
  if (modalities.length === 0 || trigrams.length === 0) return null;
  const stats = await statsOf(db);
  if (!stats) return null;
  const candidates = (modality: TModality) =>
    Math.min(...trigrams.map((trigram) => stats.freqs.get(`${modality}:${trigram}`) ?? stats.unlisted)) *
    stats.studies;
  const keyed = modalities.reduce((sum, modality) => sum + candidates(modality), 0);
  const inAnyGroup = MODALITIES.reduce((sum, modality) => sum + candidates(modality), 0);
  const total = facilityCount === null ? 0 : await facilityCountOf(db, search.organisationId);
  const share = facilityCount !== null && total > 0 ? Math.min(1, facilityCount / total) : 1;
  return keyed <= SEARCH_MODALITY_AT_MOST && keyed * AT_MOST_SHARE <= inAnyGroup * share
    ? [...modalities]
    : null;
}
