// An organisation's language model from its texts: spoken-form sentences of its templates, macros
// and final reports (each also with its punctuation said), the dictation commands and measurements,
// an ARPA trigram model of them and a dictionary with a pronunciation for every word. Words the
// model cannot pronounce are left out of both (PocketSphinx refuses a model word without one).
import { createHash } from 'node:crypto';
import { buildArpa } from './arpa.ts';
import { dictationPhrases } from './dictation-phrases.ts';
import { dictionaryFor } from './pronunciations.ts';
import { spokenSentences, spokenWords } from './spoken-form.ts';

export type TLanguageModelSources = {
  /** Plain text of templates, macros and final reports. */
  texts: readonly string[];
  templateNames: readonly string[];
  macroKeys: readonly string[];
};

export type TBuiltLanguageModel = {
  arpa: string;
  dictionary: string;
  words: number;
  sentences: number;
  sha256: string;
  /** Words pronounced by espeak-ng's rules (not in the CMU dictionary). */
  guessed: string[];
};

export async function buildLanguageModel(sources: TLanguageModelSources): Promise<TBuiltLanguageModel> {
  const sentences: string[][] = [];
  for (const text of sources.texts) {
    for (const { plain, punctuated } of spokenSentences(text)) sentences.push(plain, punctuated);
  }
  const textSentences = sentences.length / 2;
  const macroKeys = sources.macroKeys.map((key) => spokenWords(key).join(' ')).filter(Boolean);
  const names = sources.templateNames.map((name) => spokenWords(name).join(' ')).filter(Boolean);
  for (const phrase of dictationPhrases(names, macroKeys)) sentences.push(phrase.split(' '));

  const vocabulary = [...new Set(sentences.flat())].sort();
  const { lines, guessed } = await dictionaryFor(vocabulary);
  const pronounced = new Set(lines.map((line) => line.slice(0, line.indexOf(' ')).replace(/\(\d+\)$/, '')));
  const usable = sentences
    .map((sentence) => sentence.filter((word) => pronounced.has(word)))
    .filter((s) => s.length);
  const { arpa, words } = buildArpa(usable);
  const dictionary = `${lines.join('\n')}\n`;
  const sha256 = createHash('sha256').update(arpa).update('\0').update(dictionary).digest('hex');
  return { arpa, dictionary, words: words.length, sentences: textSentences, sha256, guessed };
}
