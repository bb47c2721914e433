import { DEFAULT_REPORT_STYLE } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { draftOf, parseReportStyle, serverStyleErrors, styleOfDraft } from './report-style.ts';

describe('report style form model', () => {
  it('reads the organisation report_style text, with defaults for what is missing or unreadable', () => {
    expect(parseReportStyle(null)).toEqual(DEFAULT_REPORT_STYLE);
    expect(parseReportStyle('{not json')).toEqual(DEFAULT_REPORT_STYLE);
    expect(parseReportStyle('{"font_size_pt": 99}')).toEqual(DEFAULT_REPORT_STYLE);
    expect(parseReportStyle('{"font_size_pt": 12, "margins_mm": {"top": 20}}')).toEqual({
      ...DEFAULT_REPORT_STYLE,
      font_size_pt: 12,
      margins_mm: { ...DEFAULT_REPORT_STYLE.margins_mm, top: 20 },
    });
  });

  it('round-trips a style through the form draft, accepting a decimal comma', () => {
    const draft = draftOf(DEFAULT_REPORT_STYLE);
    expect(draft.numbers['heading_sizes_pt.1']).toBe('13');
    expect(styleOfDraft(draft)).toEqual({ style: DEFAULT_REPORT_STYLE });
    const edited = {
      ...draft,
      numbers: { ...draft.numbers, line_height: '1,5', 'margins_mm.left': ' 25 ' },
      signature_placement: 'left' as const,
    };
    expect(styleOfDraft(edited)).toEqual({
      style: {
        ...DEFAULT_REPORT_STYLE,
        line_height: 1.5,
        margins_mm: { ...DEFAULT_REPORT_STYLE.margins_mm, left: 25 },
        signature_placement: 'left',
      },
    });
  });

  it('names each bad field in words, with the limits of the API schema', () => {
    const draft = draftOf(DEFAULT_REPORT_STYLE);
    const result = styleOfDraft({
      ...draft,
      numbers: {
        ...draft.numbers,
        font_size_pt: '30',
        'heading_sizes_pt.2': '',
        'margins_mm.top': '2',
        footer_height_mm: 'abc',
      },
    });
    expect(result).toEqual({
      errors: {
        font_size_pt: 'Must be at most 18',
        'heading_sizes_pt.2': 'Enter a number',
        'margins_mm.top': 'Must be at least 5',
        footer_height_mm: 'Enter a number',
      },
    });
  });

  it('puts a refused save on the field the server names', () => {
    expect(
      serverStyleErrors(
        { field: 'report_style', path: 'report_style.margins_mm.top' },
        'report_style.margins_mm.top: too big: expected number to be <=60',
      ),
    ).toEqual({ 'margins_mm.top': 'Too big: expected number to be <=60' });
    expect(
      serverStyleErrors({ field: 'report_style', path: 'report_style' }, 'report_style: not valid JSON'),
    ).toEqual({});
    expect(serverStyleErrors(undefined, 'anything')).toEqual({});
  });
});
