// The language model builder: spoken forms, a well-formed and normalised ARPA trigram model, and a
// pronunciation for every word (espeak-ng's for words the CMU dictionary lacks).
import { describe, expect, it } from 'vitest';
import { buildArpa } from './arpa.ts';
import { buildLanguageModel } from './build-language-model.ts';
import { ipaToCmu } from './pronunciations.ts';
import { integerWords, spokenSentences, spokenWords } from './spoken-form.ts';

type TArpa = { counts: number[]; grams: Map<string, { logp: number; bow: number }>[] };

/** A strict reader of the ARPA text: sections in order, counts as announced. */
function parseArpa(text: string): TArpa {
  const lines = text.split('\n');
  expect(lines[0]).toBe('\\data\\');
  const counts: number[] = [];
  const grams: Map<string, { logp: number; bow: number }>[] = [];
  let order = 0;
  for (const line of lines.slice(1)) {
    const count = /^ngram (\d)=(\d+)$/.exec(line);
    if (count) counts[Number(count[1]) - 1] = Number(count[2]);
    const section = /^\\(\d)-grams:$/.exec(line);
    if (section) {
      order = Number(section[1]);
      grams[order - 1] = new Map();
      continue;
    }
    if (line === '\\end\\') break;
    if (order === 0 || line === '') continue;
    const fields = line.split(' ');
    const words = fields.slice(1, 1 + order).join(' ');
    const bow = fields[1 + order];
    grams[order - 1]?.set(words, { logp: Number(fields[0]), bow: bow === undefined ? 0 : Number(bow) });
  }
  return { counts, grams };
}

describe('spoken form', () => {
  it.each([
    ['There is a 3.2 cm lesion.', 'there is a three point two centimetres lesion'],
    ['Nodule of 12 mm and 0.5 cm', 'nodule of twelve millimetres and zero point five centimetres'],
    [
      'Mass 4.5 x 3.1 x 2 cm, 50% stenosis',
      'mass four point five by three point one by two centimetres fifty percent stenosis',
    ],
    ['CT and MRI at T2 and L4-5', 'c t and m r i at t two and l four five'],
    ['Density 120 HU.', 'density one hundred and twenty hounsfield units'],
    ["The patient's well-defined cyst", "the patient's well defined cyst"],
  ])('%s → %s', (written, spoken) => {
    expect(spokenWords(written).join(' ')).toBe(spoken);
  });

  it('keeps headings in capitals as words, says numbers in British English', () => {
    expect(spokenWords('NO ACUTE ABNORMALITY').join(' ')).toBe('no acute abnormality');
    expect(integerWords(2045)).toBe('two thousand and forty five');
    expect(integerWords(310)).toBe('three hundred and ten');
  });

  it('splits sentences and says their punctuation in the punctuated variant', () => {
    const sentences = spokenSentences('IMPRESSION:\nThe liver, spleen and kidneys are normal. No effusion.');
    expect(sentences.map((s) => s.plain.join(' '))).toEqual([
      'impression',
      'the liver spleen and kidneys are normal',
      'no effusion',
    ]);
    expect(sentences.map((s) => s.punctuated.join(' '))).toEqual([
      'impression colon',
      'the liver comma spleen and kidneys are normal period',
      'no effusion full stop',
    ]);
  });
});

describe('ARPA trigram model', () => {
  const sentences = [
    ['no', 'pleural', 'effusion'],
    ['no', 'pneumothorax'],
    ['no', 'pleural', 'thickening'],
    ['the', 'lungs', 'are', 'clear'],
    ['the', 'heart', 'is', 'normal'],
  ];
  const { arpa, words } = buildArpa(sentences);
  const model = parseArpa(arpa);

  it('announces its counts, ends with \\end\\ and knows every word', () => {
    expect(model.counts).toEqual(model.grams.map((grams) => grams.size));
    expect(arpa.trimEnd().endsWith('\\end\\')).toBe(true);
    expect(words).toEqual([...new Set(sentences.flat())].sort());
    expect(model.grams[0]?.get('<s>')?.logp).toBe(-99);
  });

  it('lists the prefix of every n-gram one order down, with probabilities ≤ 1', () => {
    for (const order of [1, 2]) {
      for (const [key, { logp }] of model.grams[order] ?? []) {
        expect(model.grams[order - 1]?.has(key.split(' ').slice(0, -1).join(' '))).toBe(true);
        expect(logp).toBeLessThanOrEqual(0);
      }
    }
  });

  it('is a distribution after every history (back-off included)', () => {
    const vocabulary = [...(model.grams[0]?.keys() ?? [])].filter((w) => w !== '<s>');
    const p1 = (w: string) => 10 ** (model.grams[0]?.get(w)?.logp ?? -99);
    const p2 = (v: string, w: string) => {
      const listed = model.grams[1]?.get(`${v} ${w}`);
      return listed ? 10 ** listed.logp : 10 ** (model.grams[0]?.get(v)?.bow ?? 0) * p1(w);
    };
    const p3 = (u: string, v: string, w: string) => {
      const listed = model.grams[2]?.get(`${u} ${v} ${w}`);
      return listed ? 10 ** listed.logp : 10 ** (model.grams[1]?.get(`${u} ${v}`)?.bow ?? 0) * p2(v, w);
    };
    const sum = (p: (w: string) => number) => vocabulary.reduce((total, w) => total + p(w), 0);
    expect(sum(p1)).toBeCloseTo(1, 3);
    for (const v of ['<s>', 'no', 'pleural', 'the']) expect(sum((w) => p2(v, w))).toBeCloseTo(1, 3);
    for (const [u, v] of [
      ['<s>', 'no'],
      ['no', 'pleural'],
      ['the', 'lungs'],
    ] as const) {
      expect(sum((w) => p3(u, v, w))).toBeCloseTo(1, 3);
    }
  });
});

describe('pronunciations', () => {
  it('maps espeak-ng IPA to the acoustic model phones', () => {
    expect(ipaToCmu('pˌɛɹɪvəntɹˈɪkjʊlɚ')).toBe('P EH R IH V AH N T R IH K Y UH L ER');
    expect(ipaToCmu('tʃˈeɪndʒ')).toBe('CH EY N JH');
  });

  it('gives every word of the model a pronunciation: the CMU dictionary, else espeak-ng', async () => {
    const built = await buildLanguageModel({
      texts: ['Hypoattenuating periventricular lesion of 3.2 cm.', 'Cholangiocarcinoma is not excluded.'],
      templateNames: ['CT abdomen'],
      macroKeys: ['nad'],
    });
    const dictionary = new Map(
      built.dictionary
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)]),
    );
    const arpaWords = parseArpa(built.arpa).grams[0]?.keys() ?? [];
    for (const word of arpaWords) {
      if (word !== '<s>' && word !== '</s>') expect(dictionary.has(word), word).toBe(true);
    }
    expect(built.guessed).toEqual(expect.arrayContaining(['hypoattenuating', 'periventricular']));
    expect(dictionary.get('hypoattenuating')).toMatch(/^HH AY P OW/);
    expect(dictionary.get('lesion')).toBe('L IY ZH AH N');
    // Commands, measurements and the organisation's names are in the model.
    const unigrams = parseArpa(built.arpa).grams[0];
    for (const word of ['paragraph', 'centimetres', 'impression', 'abdomen', 'nad']) {
      expect(unigrams?.has(word), word).toBe(true);
    }
    expect(built.sentences).toBe(2);
    expect(built.words).toBeGreaterThan(50);
  });
});
