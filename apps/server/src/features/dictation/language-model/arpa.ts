// A trigram language model in ARPA format, estimated from sentences of words: interpolated absolute
// discounting (Ney's discount per order) written in back-off form, which is exact for this model:
// a listed n-gram carries its interpolated probability, and a history's back-off weight is the mass
// its discount set aside (γ = D · distinct followers / count).

const START = '<s>';
const END = '</s>';

type TCounts = Map<string, number>;

function add(counts: TCounts, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Ney's estimate D = n1 / (n1 + 2 n2) from the n-grams seen once and twice, kept in [0.1, 0.9]. */
function discount(counts: TCounts): number {
  let once = 0;
  let twice = 0;
  for (const count of counts.values()) {
    if (count === 1) once++;
    else if (count === 2) twice++;
  }
  const d = once + 2 * twice === 0 ? 0.5 : once / (once + 2 * twice);
  return Math.min(0.9, Math.max(0.1, d));
}

function log10(p: number): string {
  return Math.log10(p).toFixed(4);
}

export type TArpaModel = { arpa: string; words: string[] };

/** The ARPA text and the model's words (without <s> and </s>), sorted. Sentences must not be empty. */
export function buildArpa(sentences: readonly (readonly string[])[]): TArpaModel {
  const unigrams: TCounts = new Map();
  const bigrams: TCounts = new Map();
  const trigrams: TCounts = new Map();
  for (const sentence of sentences) {
    if (sentence.length === 0) continue;
    const tokens = [START, ...sentence, END];
    tokens.forEach((token, i) => {
      if (token !== START) add(unigrams, token);
      if (i >= 1) add(bigrams, `${tokens[i - 1] ?? ''} ${token}`);
      if (i >= 2) add(trigrams, `${tokens[i - 2] ?? ''} ${tokens[i - 1] ?? ''} ${token}`);
    });
  }

  // Counts and distinct followers of each history (of one word for bigrams, of two for trigrams).
  const history = (counts: TCounts): Map<string, { total: number; distinct: number }> => {
    const result = new Map<string, { total: number; distinct: number }>();
    for (const [key, count] of counts) {
      const prefix = key.slice(0, key.lastIndexOf(' '));
      const entry = result.get(prefix) ?? { total: 0, distinct: 0 };
      entry.total += count;
      entry.distinct++;
      result.set(prefix, entry);
    }
    return result;
  };
  const bigramHistory = history(bigrams);
  const trigramHistory = history(trigrams);
  const d2 = discount(bigrams);
  const d3 = discount(trigrams);

  let total = 0;
  for (const count of unigrams.values()) total += count;
  const p1 = (word: string): number => (unigrams.get(word) ?? 0) / total;
  const gamma = (entry: { total: number; distinct: number } | undefined, d: number): number =>
    entry ? (d * entry.distinct) / entry.total : 1;

  const p2 = new Map<string, number>();
  for (const [key, count] of bigrams) {
    const space = key.indexOf(' ');
    const u = key.slice(0, space);
    const w = key.slice(space + 1);
    const h = bigramHistory.get(u);
    p2.set(key, (count - d2) / (h?.total ?? count) + gamma(h, d2) * p1(w));
  }
  const p2Backoff = (v: string, w: string): number =>
    p2.get(`${v} ${w}`) ?? gamma(bigramHistory.get(v), d2) * p1(w);

  // <s> is never predicted (log10 probability -99 by convention), only a history.
  const unigramLines = [`-99 ${START} ${log10(gamma(bigramHistory.get(START), d2))}`];
  const words = [...unigrams.keys()].sort();
  for (const word of words) {
    const h = bigramHistory.get(word);
    unigramLines.push(h ? `${log10(p1(word))} ${word} ${log10(gamma(h, d2))}` : `${log10(p1(word))} ${word}`);
  }
  const bigramLines: string[] = [];
  for (const [key, probability] of p2) {
    const h = trigramHistory.get(key);
    bigramLines.push(
      h ? `${log10(probability)} ${key} ${log10(gamma(h, d3))}` : `${log10(probability)} ${key}`,
    );
  }
  const trigramLines: string[] = [];
  for (const [key, count] of trigrams) {
    const prefix = key.slice(0, key.lastIndexOf(' '));
    const [, v = '', w = ''] = key.split(' ');
    const h = trigramHistory.get(prefix);
    const probability = (count - d3) / (h?.total ?? count) + gamma(h, d3) * p2Backoff(v, w);
    trigramLines.push(`${log10(probability)} ${key}`);
  }

  const arpa = [
    '\\data\\',
    `ngram 1=${unigramLines.length}`,
    `ngram 2=${bigramLines.length}`,
    `ngram 3=${trigramLines.length}`,
    '',
    '\\1-grams:',
    ...unigramLines,
    '',
    '\\2-grams:',
    ...bigramLines,
    '',
    '\\3-grams:',
    ...trigramLines,
    '',
    '\\end\\',
    '',
  ].join('\n');
  return { arpa, words: words.filter((word) => word !== END) };
}
