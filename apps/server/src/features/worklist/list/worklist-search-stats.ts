// The statistics of the worklist's keyed search indexes, which decide when one is read: PostgreSQL
// keeps, for an index on an expression, the most common elements of its arrays and their
// frequencies (pg_stats, refreshed by ANALYZE), so the share of the index's rows holding a searched
// text's rarest key is known without reading the index.
import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';

/** The keyed search indexes whose statistics are read (migrations 0031/0045, 0041 and 0042). */
export type TStatsIndex =
  'studies_search_pair_idx' | 'studies_search_modality_idx' | 'studies_search_open_idx';

/** An index's key frequencies, read at most once per STATS_MAX_AGE_MS per database and index. */
export type TKeyStats = {
  freqs: ReadonlyMap<string, number>;
  /** The estimate of a key the statistics do not list: half the rarest listed one's frequency. */
  unlisted: number;
  /** The rows the index holds (a partial index: those of its predicate). */
  rows: number;
  readAt: number;
};

/**
 * The statistics change when ANALYZE runs (autovacuum, after a tenth of the table changed): read
 * again after this long. Reading them took 5 ms of PostgreSQL's CPU, more than the searches they decide.
 */
export const STATS_MAX_AGE_MS = 10 * 60_000;
const keyStats = new WeakMap<object, Map<TStatsIndex, Promise<TKeyStats | null>>>();

async function readKeyStats(db: TDbOrTx, index: TStatsIndex): Promise<TKeyStats | null> {
  const [row] = await queryRows<{ elems: string[]; freqs: number[]; rows: number }>(
    db,
    sql`select most_common_elems::text::text[] as elems, most_common_elem_freqs::float8[] as freqs,
        (select greatest(reltuples, 0) from pg_class
          where oid = to_regclass(quote_ident(current_schema()) || '.' || ${index}))::float8 as rows
      from pg_stats where schemaname = current_schema() and tablename = ${index}
        and most_common_elems is not null`,
  );
  if (!row) return null;
  const freqs = new Map(row.elems.map((key, i) => [key, row.freqs[i] ?? 0]));
  const unlisted = (row.freqs[row.elems.length] ?? 0) / 2;
  return { freqs, unlisted, rows: row.rows, readAt: Date.now() };
}

/** An index's key statistics, from memory while fresh (one read for the requests that find them stale together). */
export async function keyStatsOf(db: TDbOrTx, index: TStatsIndex): Promise<TKeyStats | null> {
  const held = keyStats.get(db) ?? new Map<TStatsIndex, Promise<TKeyStats | null>>();
  keyStats.set(db, held);
  const cached = held.get(index);
  if (cached) {
    const stats = await cached;
    if (stats && Date.now() - stats.readAt < STATS_MAX_AGE_MS) return stats;
    // Another request found them stale first and is reading them again.
    const next = held.get(index);
    if (next && next !== cached) return next;
  }
  const reading = readKeyStats(db, index);
  held.set(index, reading);
  reading.catch(() => held.delete(index));
  return reading;
}

/** How many of an index's rows hold every key of `keys`: its rarest key's frequency times the rows. */
export function estimateRows(stats: TKeyStats, keys: readonly string[]): number {
  return Math.min(...keys.map((key) => stats.freqs.get(key) ?? stats.unlisted)) * stats.rows;
}

/** A searched text folded by Unicode decomposition and lower-cased, as ris_unaccent and lower fold it but for a few letters (ø, ß): for estimates only. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * A searched text's trigram keys as the query key functions make them: each three ASCII letters or
 * digits in a row of the text folded. An estimate only: the statement's own keys decide the matches.
 */
export function trigramsOf(text: string): string[] {
  const trigrams = new Set<string>();
  const text3 = folded(text);
  for (let i = 0; i + 3 <= text3.length; i++) {
    const trigram = text3.slice(i, i + 3);
    if (/^[a-z0-9]{3}$/.test(trigram)) trigrams.add(trigram);
  }
  return [...trigrams];
}

/** A searched text's pairs of characters as ris_search_pairs keeps them (neither a space nor two digits). */
export function pairsOf(text: string): string[] {
  const characters = [...folded(text)];
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < characters.length; i++) {
    const pair = `${characters[i] ?? ''}${characters[i + 1] ?? ''}`;
    if (!/\s|^[0-9]{2}$/u.test(pair)) pairs.add(pair);
  }
  return [...pairs];
}

/** The pair-keyed index's keys of searched texts, per database (ris_search_query_pairs is immutable). */
const pairKeys = new WeakMap<object, Map<string, Promise<readonly string[]>>>();
/** The texts whose keys one database holds at most: past it they are all made again. */
const PAIR_KEYS_HELD_AT_MOST = 10_000;

/** An ASCII text's keys as ris_search_query_pairs makes them: lower-casing is all its folding does. */
function asciiPairKeys(text: string): string[] {
  const lower = text.toLowerCase();
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < lower.length; i++) {
    const pair = lower.slice(i, i + 2);
    if (!/\s|^[0-9]{2}$/.test(pair)) pairs.add(pair);
  }
  if (pairs.size > 0) return [...pairs];
  return [...new Set([...lower].filter((character) => !/\s|[0-9]/.test(character)))];
}

/**
 * A searched text's keys in the pair-keyed index, exactly as ris_search_query_pairs makes them
 * (migrations 0031, 0045): its pairs of characters (neither holding a space nor two digits), else its
 * single characters (neither a space nor a digit); none for a text of spaces and digits, which is
 * then not looked up. Made here for ASCII text; asked of PostgreSQL otherwise, whose unaccent rules
 * fold letters Unicode does not decompose ("Ł" to "l", "ß" to "ss"), and held in memory.
 * Estimated from the wrong keys, "Ł" (a rare "ł", in fact every "l") was read from the index: 1 s.
 */
export function pairKeysFor(db: TDbOrTx, text: string): Promise<readonly string[]> {
  // eslint-disable-next-line no-control-regex -- ASCII is the range U+0000 to U+007F
  if (/^[\x00-\x7f]*$/.test(text)) return Promise.resolve(asciiPairKeys(text));
  const held = pairKeys.get(db) ?? new Map<string, Promise<readonly string[]>>();
  pairKeys.set(db, held);
  const found = held.get(text);
  if (found) return found;
  if (held.size >= PAIR_KEYS_HELD_AT_MOST) held.clear();
  const reading = queryRows<{ keys: string[] }>(db, sql`select ris_search_query_pairs(${text}) as keys`).then(
    ([row]) => row?.keys ?? [],
  );
  held.set(text, reading);
  reading.catch(() => held.delete(text));
  return reading;
}
