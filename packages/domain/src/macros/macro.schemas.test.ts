import { describe, expect, it } from 'vitest';
import { ZCreateMacroBody, ZMacroShortKey, ZUpdateMacroBody, macroBeforeCaret } from './macro.schemas.ts';

const macros = [
  { short_key: 'nad', value: '<p>No abnormality detected.</p>' },
  { short_key: 'FU6', value: '<p>Follow-up in 6 months.</p>' },
  { short_key: 'nad2', value: '<p>Second.</p>' },
];

describe('macroBeforeCaret', () => {
  it('finds the macro whose short key ends the text, case-insensitively, with its length', () => {
    expect(macroBeforeCaret('nad', macros)).toEqual({ macro: macros[0], length: 3 });
    expect(macroBeforeCaret('Liver normal. NAD', macros)).toEqual({ macro: macros[0], length: 3 });
    expect(macroBeforeCaret('see fu6', macros)).toEqual({ macro: macros[1], length: 3 });
    expect(macroBeforeCaret('x nad2', macros)).toEqual({ macro: macros[2], length: 4 });
  });

  it('takes the whole word before the caret, after any non-alphanumeric character', () => {
    expect(macroBeforeCaret('(nad', macros)?.macro).toBe(macros[0]);
    expect(macroBeforeCaret('end.nad', macros)?.macro).toBe(macros[0]);
    expect(macroBeforeCaret('é-nad', macros)?.macro).toBe(macros[0]);
    // A short key inside a longer word is not a macro.
    expect(macroBeforeCaret('canad', macros)).toBeNull();
    expect(macroBeforeCaret('nadir', macros)).toBeNull();
  });

  it('returns null without a word right before the caret or without a matching macro', () => {
    expect(macroBeforeCaret('', macros)).toBeNull();
    expect(macroBeforeCaret('nad ', macros)).toBeNull();
    expect(macroBeforeCaret('nad.', macros)).toBeNull();
    expect(macroBeforeCaret('unknown', macros)).toBeNull();
    expect(macroBeforeCaret('nad', [])).toBeNull();
  });
});

describe('macro bodies', () => {
  const user_fk = '00000000-0000-4000-8000-000000000001';

  it('accepts letters and digits only as short key, trimmed', () => {
    expect(ZMacroShortKey.parse(' Nad1 ')).toBe('Nad1');
    for (const bad of ['', ' ', 'n a d', 'nad!', 'nád', 'a-b', 'x'.repeat(33)]) {
      expect(ZMacroShortKey.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('requires a non-blank value on create and allows partial updates', () => {
    expect(ZCreateMacroBody.safeParse({ short_key: 'nad', value: '  ', user_fk }).success).toBe(false);
    expect(ZCreateMacroBody.parse({ short_key: 'nad', value: '<p>x</p>', user_fk })).toMatchObject({
      short_key: 'nad',
    });
    expect(ZUpdateMacroBody.parse({})).toEqual({});
    expect(ZUpdateMacroBody.safeParse({ short_key: 'a b' }).success).toBe(false);
  });
});
