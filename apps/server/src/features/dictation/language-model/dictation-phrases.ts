// What every organisation's language model must know besides its own texts: the voice commands
// and punctuation words of the dictation grammar (packages/domain dictation), and how measurements
// are said. As sentences of spoken words, so the model learns them in context.
import { SPOKEN_COMMAND_PHRASES } from '@ris/domain';
import { integerWords } from './spoken-form.ts';

const UNITS = ['millimetres', 'centimetres', 'millimetre', 'centimetre'];
const LEVELS = [
  ...Array.from({ length: 7 }, (_, i) => `c ${integerWords(i + 1)}`),
  ...Array.from({ length: 12 }, (_, i) => `t ${integerWords(i + 1)}`),
  ...Array.from({ length: 5 }, (_, i) => `l ${integerWords(i + 1)}`),
  's one',
];

/** Measurements, percentages, densities and vertebral levels as radiologists say them. */
function measurementPhrases(): string[] {
  const phrases: string[] = [];
  for (let whole = 0; whole <= 20; whole++) {
    const unit = UNITS[whole % UNITS.length] ?? 'millimetres';
    phrases.push(`${integerWords(whole)} ${unit}`);
    phrases.push(`measuring ${integerWords(whole)} point ${integerWords(whole % 10)} ${unit}`);
    phrases.push(
      `${integerWords(whole)} point ${integerWords((whole * 7) % 10)} by ${integerWords((whole * 3) % 10)} point ${integerWords(whole % 10)} centimetres`,
    );
    phrases.push(`${integerWords(whole)} by ${integerWords(whole + 1)} millimetres`);
  }
  for (let tens = 20; tens <= 100; tens += 10) {
    phrases.push(`${integerWords(tens)} percent`, `${integerWords(tens + 5)} hounsfield units`);
    phrases.push(`measuring ${integerWords(tens + 2)} millimetres`);
  }
  for (const hundreds of [100, 120, 150, 250]) phrases.push(`${integerWords(hundreds)} millilitres`);
  for (const level of LEVELS) phrases.push(`at the ${level} level`, `${level} vertebral body`);
  return phrases;
}

/**
 * The phrases as sentences: commands alone and after a short sentence, measurements, and
 * "insert template <name>" / "insert macro <key>" for the organisation's own names and keys.
 */
export function dictationPhrases(templateNames: readonly string[], macroKeys: readonly string[]): string[] {
  return [
    ...SPOKEN_COMMAND_PHRASES,
    ...SPOKEN_COMMAND_PHRASES.map((phrase) => `no abnormality detected ${phrase}`),
    ...measurementPhrases(),
    ...templateNames.map((name) => `insert template ${name}`),
    ...macroKeys.flatMap((key) => [`insert macro ${key}`, `insert macro ${[...key].join(' ')}`]),
  ];
}
