// The dictionary of an organisation's language model: CMU pronunciations (pocketsphinx-en-us's
// cmudict) for the words they know, espeak-ng's letter-to-sound rules, its IPA mapped to the
// acoustic model's phones, for the rest ("hypoattenuating", "periventricular").
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { CMU_DICT_PATH } from '../../../integrations/speech/pocketsphinx/pocketsphinx-library.ts';

/** IPA (espeak-ng --ipa, stress and length marks removed) → CMU phones; longest match first. */
const IPA_TO_CMU: readonly [string, string][] = [
  ['aɪə', 'AY ER'],
  ['aɪ', 'AY'],
  ['aʊ', 'AW'],
  ['eɪ', 'EY'],
  ['oʊ', 'OW'],
  ['əʊ', 'OW'],
  ['ɔɪ', 'OY'],
  ['tʃ', 'CH'],
  ['dʒ', 'JH'],
  ['iə', 'IY AH'],
  ['eə', 'EH R'],
  ['ʊə', 'UH R'],
  ['i', 'IY'],
  ['ɪ', 'IH'],
  ['ᵻ', 'IH'],
  ['ɛ', 'EH'],
  ['e', 'EH'],
  ['æ', 'AE'],
  ['a', 'AE'],
  ['ɑ', 'AA'],
  ['ɒ', 'AA'],
  ['ɔ', 'AO'],
  ['o', 'OW'],
  ['ʊ', 'UH'],
  ['u', 'UW'],
  ['ʌ', 'AH'],
  ['ə', 'AH'],
  ['ɐ', 'AH'],
  ['ɚ', 'ER'],
  ['ɜ', 'ER'],
  ['ɝ', 'ER'],
  ['p', 'P'],
  ['b', 'B'],
  ['t', 'T'],
  ['d', 'D'],
  ['k', 'K'],
  ['ɡ', 'G'],
  ['g', 'G'],
  ['f', 'F'],
  ['v', 'V'],
  ['θ', 'TH'],
  ['ð', 'DH'],
  ['s', 'S'],
  ['z', 'Z'],
  ['ʃ', 'SH'],
  ['ʒ', 'ZH'],
  ['h', 'HH'],
  ['m', 'M'],
  ['n', 'N'],
  ['ŋ', 'NG'],
  ['l', 'L'],
  ['ɹ', 'R'],
  ['r', 'R'],
  ['w', 'W'],
  ['j', 'Y'],
  ['ɾ', 'T'],
  ['ʔ', 'T'],
  ['x', 'K'],
];

/** CMU phones of one word's IPA; symbols the table lacks (syllabic marks, tie bars) are skipped. */
export function ipaToCmu(ipa: string): string {
  const plain = ipa.replace(/[ˈˌːˑ\s\u0329\u0361-]/g, '');
  const phones: string[] = [];
  let rest = plain;
  while (rest.length > 0) {
    const match = IPA_TO_CMU.find(([symbol]) => rest.startsWith(symbol));
    if (match) {
      phones.push(match[1]);
      rest = rest.slice(match[0].length);
    } else rest = rest.slice(1);
  }
  // 'ɚɹ' (as in "hyper") is one r-coloured vowel to the CMU set.
  return phones.join(' ').replace(/\bER R\b/g, 'ER');
}

let cmudict: Promise<Map<string, string[]>> | null = null;

/** word → its dictionary lines ("word P H", "word(2) P H"), read once per thread. */
function loadCmudict(): Promise<Map<string, string[]>> {
  cmudict ??= readFile(CMU_DICT_PATH, 'utf8').then((text) => {
    const entries = new Map<string, string[]>();
    for (const line of text.split('\n')) {
      const space = line.indexOf(' ');
      if (space <= 0) continue;
      const word = line.slice(0, space).replace(/\(\d+\)$/, '');
      const lines = entries.get(word) ?? [];
      lines.push(line.trim());
      entries.set(word, lines);
    }
    return entries;
  });
  return cmudict;
}

/** espeak-ng's IPA for each word (one line per word: each is its own clause). */
function espeakIpa(words: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('espeak-ng', ['-q', '--ipa', '-v', 'en-us'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`espeak-ng exited with ${String(code)}`));
      else
        resolve(
          Buffer.concat(out)
            .toString('utf8')
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        );
    });
    child.stdin.end(words.map((word) => `${word}.`).join('\n'));
  });
}

/** Pronunciations for the words; `guessed` are the words espeak-ng spelled out. */
export async function dictionaryFor(
  words: readonly string[],
): Promise<{ lines: string[]; guessed: string[] }> {
  const known = await loadCmudict();
  const lines: string[] = [];
  const unknown: string[] = [];
  for (const word of words) {
    const entries = known.get(word);
    if (entries) lines.push(...entries);
    else unknown.push(word);
  }
  const guessed: string[] = [];
  // One espeak-ng run for all of them; if its lines do not pair with the words, one run per word.
  // Without espeak-ng those words are left out of the model (the rest still works).
  let ipa = unknown.length > 0 ? await espeakIpa(unknown).catch(() => null) : [];
  if (ipa && ipa.length !== unknown.length) {
    ipa = await Promise.all(unknown.map(async (word) => (await espeakIpa([word]).catch(() => [])).join(' ')));
  }
  unknown.forEach((word, index) => {
    const phones = ipaToCmu(ipa?.[index] ?? '');
    if (!phones) return;
    lines.push(`${word} ${phones}`);
    guessed.push(word);
  });
  return { lines, guessed };
}
