// A worklist search for an identifier (an MRN, an accession number, the start or any part of one):
// the digit-gram index (migration 0046) keys each study by the five characters in a row of each of
// its words that hold a digit. The trigrams of such a text are each in most studies of an archive
// that numbers its patients and accessions ("mrn", "rn0", "000"), so the trigram indexes found half
// the archive for "mrn0000" (100-460 ms at 1,000,000 studies); its grams find its 5,000 studies,
// and a full MRN's its few (1-3 ms where the trigrams took 22-32).
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { estimateRows, keyStatsOf } from './worklist-search-stats.ts';

/** The characters in a row of a gram (ris_search_digit_grams). */
const GRAM_LENGTH = 5;

/**
 * Up to this many candidates (the rarest gram's studies, estimated from the index's statistics) the
 * index finds a text's studies, each read and tested: 2-15 µs each (their rows lie anywhere in the
 * archive, the older ones outside PostgreSQL's buffers), so 6,000 cost 15-80 ms, where the trigram
 * keys of "mrn0000" read 100-460. Past it the text is found as any other.
 */
export const DIGIT_GRAM_ROWS_AT_MOST = 6_000;

/**
 * A folded text's grams as ris_search_digit_grams makes them: in each run of characters between
 * spaces (' ' only, as string_to_array splits), every GRAM_LENGTH characters in a row holding an
 * ASCII digit. A text that a study's search_text holds lies within it, so do each of its runs and
 * their grams: the study's keys hold them all. Characters are counted as PostgreSQL's substr counts
 * them (code points).
 */
export function digitGramsOf(folded: string): string[] {
  const grams = new Set<string>();
  for (const word of folded.split(' ')) {
    const characters = [...word];
    for (let i = 0; i + GRAM_LENGTH <= characters.length; i++) {
      const gram = characters.slice(i, i + GRAM_LENGTH).join('');
      if (/[0-9]/.test(gram)) grams.add(gram);
    }
  }
  return [...grams].sort();
}

/**
 * A folded text's grams (digitGramsOf) when it is one word they cover: each of its characters lies in
 * one of them, so every part of it is looked up in keys of five characters where its trigrams are
 * three. An identifier's prefix many studies hold ("A0003", in a tenth of the archive) is one gram
 * held by exactly the studies holding it (100,000), where its trigrams ("a00", "000", "003") found
 * 165,000 studies on 7.7 times as many table pages. Null for a text with a character outside every
 * gram ("smith1": "s"; fewer than five characters) or with several words: the trigrams then also say
 * which words stand next to which ("a0003 a0003" read 58 ms by its one gram, 33 by its trigrams).
 */
export function coveringDigitGramsOf(folded: string): TGramKeys | null {
  const characters = [...folded];
  if (characters.includes(' ')) return null;
  const covered = characters.map(() => false);
  for (let i = 0; i + GRAM_LENGTH <= characters.length; i++) {
    if (/[0-9]/.test(characters.slice(i, i + GRAM_LENGTH).join(''))) covered.fill(true, i, i + GRAM_LENGTH);
  }
  const [first, ...rest] = digitGramsOf(folded);
  return first === undefined || covered.includes(false) ? null : [first, ...rest];
}

/** Grams to look up: never none (the index's condition would then hold for every study). */
export type TGramKeys = readonly [string, ...string[]];

/** A text's grams and the studies the index finds for them (an estimate). */
export type TDigitGrams = { keys: TGramKeys; rows: number };

/**
 * The grams of a folded search text where the digit-gram index finds few candidates for them
 * (DIGIT_GRAM_ROWS_AT_MOST, its rarest gram's frequency in the statistics): else null, as for a
 * text without grams or an index without statistics yet (ANALYZE, which autovacuum runs).
 */
export async function fewDigitGramsOf(db: TDbOrTx, folded: string): Promise<TDigitGrams | null> {
  const [first, ...rest] = digitGramsOf(folded);
  if (first === undefined) return null;
  const keys: TGramKeys = [first, ...rest];
  const stats = await keyStatsOf(db, 'studies_search_digit_idx');
  if (!stats) return null;
  const rows = estimateRows(stats, keys);
  return rows <= DIGIT_GRAM_ROWS_AT_MOST ? { keys, rows } : null;
}

/** The digit-gram index's condition for a text's grams, one parameter a gram (none read as array syntax). */
export function holdsDigitGrams(keys: TGramKeys): SQL {
  const grams = sql.join(
    keys.map((key) => sql`${key}::text`),
    sql`, `,
  );
  return sql`ris_search_digit_grams("studies"."search_text") @> array[${grams}]`;
}
