import { describe, expect, it } from 'vitest';
import {
  SPOKEN_COMMAND_PHRASES,
  parseDictation,
  segmentsToText,
  startsSentence,
} from './dictation-grammar.ts';
import { ZDictationSegment, type TDictationSegment } from './dictation.schemas.ts';

const text = (value: string): TDictationSegment => ({ kind: 'text', text: value });

describe('parseDictation: voice commands', () => {
  const cases: [spoken: string, expected: TDictationSegment[]][] = [
    ['new line', [{ kind: 'command', command: 'new-line' }]],
    ['New Line', [{ kind: 'command', command: 'new-line' }]],
    ['new paragraph', [{ kind: 'command', command: 'new-paragraph' }]],
    ['next paragraph', [{ kind: 'command', command: 'new-paragraph' }]],
    ['delete that', [{ kind: 'command', command: 'delete-that' }]],
    ['scratch that', [{ kind: 'command', command: 'delete-that' }]],
    ['undo', [{ kind: 'command', command: 'undo' }]],
    ['undo that', [{ kind: 'command', command: 'undo' }]],
    ['next field', [{ kind: 'command', command: 'next-field' }]],
    ['go to impression', [{ kind: 'command', command: 'go-to-impression' }]],
    ['stop dictation', [{ kind: 'command', command: 'stop-dictation' }]],
    ['STOP LISTENING', [{ kind: 'command', command: 'stop-dictation' }]],
    [
      'the liver is normal new line the spleen is normal',
      [text('The liver is normal'), { kind: 'command', command: 'new-line' }, text('The spleen is normal')],
    ],
    [
      'no effusion full stop new paragraph impression colon normal study',
      [text('No effusion.'), { kind: 'command', command: 'new-paragraph' }, text('Impression: normal study')],
    ],
    ['normal full stop stop dictation', [text('Normal.'), { kind: 'command', command: 'stop-dictation' }]],
    [
      'insert template CT abdomen with contrast',
      [{ kind: 'command', command: 'insert-template', argument: 'CT abdomen with contrast' }],
    ],
    [
      'findings insert template chest x-ray.',
      [text('Findings'), { kind: 'command', command: 'insert-template', argument: 'chest x-ray' }],
    ],
    ['insert template', [{ kind: 'command', command: 'insert-template' }]],
    ['insert macro normal', [{ kind: 'command', command: 'insert-macro', argument: 'normal' }]],
    [
      'insert macro c t a then the aorta',
      [{ kind: 'command', command: 'insert-macro', argument: 'cta' }, text('Then the aorta')],
    ],
    ['insert macro n one', [{ kind: 'command', command: 'insert-macro', argument: 'n1' }]],
    ['insert macro', [{ kind: 'command', command: 'insert-macro' }]],
  ];
  it.each(cases)('%j', (spoken, expected) => {
    const segments = parseDictation(spoken);
    expect(segments).toEqual(expected);
    for (const segment of segments) expect(ZDictationSegment.parse(segment)).toEqual(segment);
  });

  it('matches whole words only ("newline" and "undone" are words, not commands)', () => {
    expect(parseDictation('the findings are undone')).toEqual([text('The findings are undone')]);
    expect(parseDictation('renewal line')).toEqual([text('Renewal line')]);
  });
});

describe('parseDictation: punctuation and capitals', () => {
  const cases: [spoken: string, written: string][] = [
    [
      'the liver is normal full stop the spleen is normal period',
      'The liver is normal. The spleen is normal.',
    ],
    [
      'the lesion comma which is new comma measures ten millimetres',
      'The lesion, which is new, measures 10 mm',
    ],
    ['comparison colon none', 'Comparison: none'],
    ['findings semicolon see below', 'Findings; see below'],
    ['findings semi colon see below', 'Findings; see below'],
    ['is this new question mark probably', 'Is this new? Probably'],
    ['follow hyphen up', 'Follow-up'],
    ['the cyst open bracket see image twelve close bracket is simple', 'The cyst (see image 12) is simple'],
    ['open bracket unchanged close bracket', '(Unchanged)'],
    // Punctuation the engine already wrote is kept, with the same spacing.
    [
      'no change. the heart is normal , the lungs are clear',
      'No change. The heart is normal, the lungs are clear',
    ],
    // "colon" and "period" as words of the report.
    ['the sigmoid colon is normal', 'The sigmoid colon is normal'],
    ['colon is unremarkable', 'Colon is unremarkable'],
    ['thickening of the descending colon full stop', 'Thickening of the descending colon.'],
    ['stable over a period of six months period', 'Stable over a period of six months.'],
    ['unchanged over the same period full stop', 'Unchanged over the same period.'],
    ['full stop', '.'],
    ['comma and the spleen', ', and the spleen'],
  ];
  it.each(cases)('%j → %j', (spoken, written) => {
    expect(parseDictation(spoken)).toEqual([text(written)]);
  });

  it('leaves the first word as spoken when the caret follows unfinished text', () => {
    expect(parseDictation('in size full stop normal', { sentenceStart: false })).toEqual([
      text('in size. Normal'),
    ]);
  });

  it('capitalises after a new line or new paragraph, keeps other capitals', () => {
    expect(parseDictation('findings colon new line the MRI shows a T2 bright lesion')).toEqual([
      text('Findings:'),
      { kind: 'command', command: 'new-line' },
      text('The MRI shows a T2 bright lesion'),
    ]);
  });

  it('gives nothing for silence', () => {
    expect(parseDictation('')).toEqual([]);
    expect(parseDictation('   ')).toEqual([]);
  });
});

describe('parseDictation: numbers and measurements', () => {
  const cases: [spoken: string, written: string][] = [
    ['three point two centimetres', '3.2 cm'],
    ['three point two centimeters', '3.2 cm'],
    ['twelve millimetres', '12 mm'],
    ['one millimeter', '1 mm'],
    ['one hundred and twenty', '120'],
    ['one hundred twenty five', '125'],
    ['two thousand and five', '2005'],
    ['zero point five', '0.5'],
    ['three point one four', '3.14'],
    ['two point oh five', '2.05'],
    ['two by three centimetres', '2 x 3 cm'],
    ['four point five by three point one by two millimetres', '4.5 x 3.1 x 2 mm'],
    ['two by three', '2 x 3'],
    ['fifty percent', '50%'],
    ['five per cent', '5%'],
    ['twenty five hounsfield units', '25 HU'],
    ['hounsfield units', 'HU'],
    ['three hundred millilitres', '300 mL'],
    ['angled thirty degrees', 'Angled 30°'],
    ['twenty-five millimetres', '25 mm'],
    ['measuring 3.2 cm', 'Measuring 3.2 cm'],
    ['measuring 4 by 5 mm', 'Measuring 4 x 5 mm'],
    ['compared with march twenty twenty four', 'Compared with march 2024'],
    ['in nineteen ninety nine', 'In 1999'],
    ['twenty five', '25'],
    ['twenty twenty', '2020'],
    // Spinal levels.
    ['T two weighted images', 'T2 weighted images'],
    ['disc protrusion at L four five', 'Disc protrusion at L4-5'],
    ['C five six', 'C5-6'],
    ['L five S one', 'L5-S1'],
    ['T twelve L one', 'T12-L1'],
    ['at L four and L five', 'At L4 and L5'],
    // Numbering words take digits even below ten.
    ['segment seven', 'Segment 7'],
    ['image five of series three', 'Image 5 of series 3'],
    ['bi-rads category four', 'Bi-rads category 4'],
    // Ten and above are digits; below ten before an ordinary word stay words.
    ['one of the nodules', 'One of the nodules'],
    ['two small cysts', 'Two small cysts'],
    [
      'there are three nodules comma the largest one measures six millimetres',
      'There are three nodules, the largest one measures 6 mm',
    ],
    ['a sixty year old man', 'A 60 year old man'],
    ['twelve lymph nodes', '12 lymph nodes'],
    ['a small cyst', 'A small cyst'],
    ['at this point', 'At this point'],
    ['five point', 'Five point'],
  ];
  it.each(cases)('%j → %j', (spoken, written) => {
    expect(parseDictation(spoken)).toEqual([text(written)]);
  });
});

describe('startsSentence', () => {
  const cases: [preceding: string, starts: boolean][] = [
    ['', true],
    ['   ', true],
    ['The liver is normal.', true],
    ['The liver is normal. ', true],
    ['Is it new?', true],
    ['Findings:\n', true],
    ['Findings:', false],
    ['The liver is normal', false],
    ['The lesion,', false],
  ];
  it.each(cases)('%j → %s', (preceding, starts) => {
    expect(startsSentence(preceding)).toBe(starts);
  });
});

describe('segmentsToText', () => {
  const cases: [segments: TDictationSegment[], transcript: string][] = [
    [
      [text('The liver is normal.'), text('The spleen is normal.')],
      'The liver is normal. The spleen is normal.',
    ],
    [[text('The liver is normal'), text(', and the spleen')], 'The liver is normal, and the spleen'],
    [[text('Findings:'), { kind: 'command', command: 'new-line' }, text('Normal.')], 'Findings:\nNormal.'],
    [
      [text('Normal.'), { kind: 'command', command: 'new-paragraph' }, text('Impression: normal.')],
      'Normal.\n\nImpression: normal.',
    ],
    [
      [
        text('Normal'),
        { kind: 'command', command: 'delete-that' },
        { kind: 'command', command: 'insert-macro', argument: 'cta' },
        { kind: 'command', command: 'stop-dictation' },
        text('done'),
      ],
      'Normal done',
    ],
    [[], ''],
  ];
  it.each(cases)('%#', (segments, transcript) => {
    expect(segmentsToText(segments)).toBe(transcript);
  });

  it('turns a whole dictation into its transcript', () => {
    const finals = [
      'the liver measures fifteen point five centimetres full stop',
      'no focal lesion full stop new paragraph impression colon',
      'normal study full stop stop dictation',
    ];
    let transcript = '';
    for (const final of finals) {
      const segments = parseDictation(final, { sentenceStart: startsSentence(transcript) });
      transcript = segmentsToText([{ kind: 'text', text: transcript }, ...segments]);
    }
    expect(transcript).toBe('The liver measures 15.5 cm. No focal lesion.\n\nImpression: normal study.');
  });
});

describe('SPOKEN_COMMAND_PHRASES (what the language models learn)', () => {
  it('lists phrases that the grammar reads as a command or a mark, never as words', () => {
    expect(SPOKEN_COMMAND_PHRASES).toContain('new paragraph');
    expect(SPOKEN_COMMAND_PHRASES).toContain('full stop');
    for (const phrase of SPOKEN_COMMAND_PHRASES) {
      const segments = parseDictation(`liver normal ${phrase}`);
      const words = segmentsToText(segments.filter((segment) => segment.kind === 'text'));
      expect(words.toLowerCase(), phrase).not.toContain(phrase);
    }
  });
});
