// The statistics of the worklist's keyed search indexes, which decide when one is read: PostgreSQL
// keeps, for an index on an expression, the most common elements of its arrays and their
// frequencies (pg_stats, refreshed by ANALYZE), so the share of the index's rows holding a searched
// text's rarest key is known without reading the index.
import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';

/** The keyed search indexes whose statistics are read (migrations 0031/0045, 0041, 0042 and 0046). */
export type TStatsIndex =
  | 'studies_search_pair_idx'
  | 'studies_search_modality_idx'
  | 'studies_search_open_idx'
  | 'studies_search_digit_idx';

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

/** A searched text folded as search_text is, and its keys in the pair-keyed index. */
type TSearchFolding = { folded: string; pairKeys: readonly string[] };
/** Searched texts folded by PostgreSQL, per database (lower, ris_unaccent and the keys are immutable). */
const foldings = new WeakMap<object, Map<string, Promise<TSearchFolding>>>();
/** The texts one database holds at most: past it they are all folded again. */
const FOLDED_HELD_AT_MOST = 10_000;

/**
 * A searched text folded exactly as search_text is (lower-cased, unaccented), and its keys in the
 * pair-keyed index exactly as ris_search_query_pairs makes them (migrations 0031, 0045): its pairs of
 * characters (neither holding a space nor two digits), else its single characters (neither a space
 * nor a digit); none for a text of spaces and digits, which is then not looked up. ASCII text is
 * made here: lower-casing is all the folding does to it, and its spaces are PostgreSQL's. Other text
 * is folded and keyed by PostgreSQL once and held in memory: its unaccent rules fold letters Unicode's
 * decomposition leaves alone ("Ł" is "l", "ß" is "ss", "ø" is "o"), and its idea of a space decides
 * the keys (a key it does not make would find no study, none it makes would read the whole index).
 * Estimated from "ł", a radiologist's month of "Ł" (in fact every "l") was read from the pair index in 1 s.
 */
function searchFoldingOf(db: TDbOrTx, text: string): Promise<TSearchFolding> {
  if (/^\p{ASCII}*$/u.test(text)) {
    const folded = text.toLowerCase();
    const pairs = pairsOf(folded);
    const singles = [...new Set([...folded].filter((character) => !/\s|[0-9]/.test(character)))];
    return Promise.resolve({ folded, pairKeys: pairs.length > 0 ? pairs : singles });
  }
  const held = foldings.get(db) ?? new Map<string, Promise<TSearchFolding>>();
  foldings.set(db, held);
  const found = held.get(text);
  if (found) return found;
  if (held.size >= FOLDED_HELD_AT_MOST) held.clear();
  const folding = queryRows<{ folded: string; keys: string[] }>(
    db,
    sql`select lower(ris_unaccent(${text})) as folded, ris_search_query_pairs(${text}) as keys`,
  ).then(([row]) => ({ folded: row?.folded ?? text.toLowerCase(), pairKeys: [...new Set(row?.keys ?? [])] }));
  held.set(text, folding);
  folding.catch(() => held.delete(text));
  return folding;
}

/** A searched text folded as search_text is (searchFoldingOf), for the keys that decide how it is searched. */
export async function foldedSearchText(db: TDbOrTx, text: string): Promise<string> {
  return (await searchFoldingOf(db, text)).folded;
}

/** A searched text's keys in the pair-keyed index, as ris_search_query_pairs makes them (searchFoldingOf). */
export async function pairKeysFor(db: TDbOrTx, text: string): Promise<readonly string[]> {
  return (await searchFoldingOf(db, text)).pairKeys;
}

/** A folded text's trigram keys as the query key functions make them: each three ASCII letters or digits in a row. */
export function trigramsOf(folded: string): string[] {
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= folded.length; i++) {
    const trigram = folded.slice(i, i + 3);
    if (/^[a-z0-9]{3}$/.test(trigram)) trigrams.add(trigram);
  }
  return [...trigrams];
}

/** A folded text's pairs of characters as ris_search_pairs keeps them (neither a space nor two digits). */
export function pairsOf(folded: string): string[] {
  const characters = [...folded];
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < characters.length; i++) {
    const pair = `${characters[i] ?? ''}${characters[i + 1] ?? ''}`;
    if (!/\s|^[0-9]{2}$/u.test(pair)) pairs.add(pair);
  }
  return [...pairs];
}
