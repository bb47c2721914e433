// Word error rate: (substitutions + deletions + insertions) / reference words, by edit distance over
// words (lower case, punctuation ignored). The offline engine's tests and the dictation bench use it.

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(' ')
    .filter(Boolean);
}

/** Word errors of the hypothesis against the reference, and the reference's word count. */
export function wordErrors(reference: string, hypothesis: string): { errors: number; words: number } {
  const ref = words(reference);
  const hyp = words(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const current = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1));
    }
    previous = current;
  }
  return { errors: previous[hyp.length] ?? 0, words: ref.length };
}

/** WER of one hypothesis (0 = perfect; can exceed 1 with many insertions). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const { errors, words: count } = wordErrors(reference, hypothesis);
  return count === 0 ? (errors === 0 ? 0 : 1) : errors / count;
}
