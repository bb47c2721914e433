import { DEFAULT_REPORT_STYLE, ZReportStyle, type TReportStyle, type TSignaturePlacement } from '@ris/domain';

/** The style form's number fields, by the path of the value in the report style. */
export const STYLE_NUMBER_FIELDS = [
  'font_size_pt',
  'heading_sizes_pt.0',
  'heading_sizes_pt.1',
  'heading_sizes_pt.2',
  'line_height',
  'margins_mm.top',
  'margins_mm.right',
  'margins_mm.bottom',
  'margins_mm.left',
  'header_height_mm',
  'footer_height_mm',
] as const;
export type TStyleNumberField = (typeof STYLE_NUMBER_FIELDS)[number];

/** What the form holds: the numbers as typed (so "1." or "" can be on screen), the rest as values. */
export interface TStyleDraft {
  numbers: Record<TStyleNumberField, string>;
  signature_placement: TSignaturePlacement;
  show_patient_block: boolean;
}

export type TStyleErrors = Partial<Record<TStyleNumberField, string>>;

/** The organisation's report_style (serialized JSON, or null) as a complete style; defaults when unreadable. */
export function parseReportStyle(text: string | null | undefined): TReportStyle {
  if (!text) return DEFAULT_REPORT_STYLE;
  try {
    const parsed = ZReportStyle.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : DEFAULT_REPORT_STYLE;
  } catch {
    return DEFAULT_REPORT_STYLE;
  }
}

function numberOf(style: TReportStyle, field: TStyleNumberField): number {
  const [key, part] = field.split('.') as [string, string | undefined];
  if (key === 'heading_sizes_pt') return style.heading_sizes_pt[Number(part)] ?? 0;
  if (key === 'margins_mm') return style.margins_mm[part as keyof TReportStyle['margins_mm']];
  return style[key as 'font_size_pt' | 'line_height' | 'header_height_mm' | 'footer_height_mm'];
}

export function draftOf(style: TReportStyle): TStyleDraft {
  const numbers = Object.fromEntries(
    STYLE_NUMBER_FIELDS.map((field) => [field, String(numberOf(style, field))]),
  ) as Record<TStyleNumberField, string>;
  return {
    numbers,
    signature_placement: style.signature_placement,
    show_patient_block: style.show_patient_block,
  };
}

function toNumber(text: string): number {
  const trimmed = text.trim().replace(',', '.');
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

/** The report_style path of a zod issue ('margins_mm.top', 'heading_sizes_pt.1') when it is a form field. */
function fieldOfPath(path: readonly PropertyKey[]): TStyleNumberField | null {
  const name = path.map(String).join('.');
  return (STYLE_NUMBER_FIELDS as readonly string[]).includes(name) ? (name as TStyleNumberField) : null;
}

type TIssue = { path: readonly PropertyKey[]; code: string; minimum?: unknown; maximum?: unknown };

function issueText(issue: TIssue): string {
  if (issue.code === 'too_small' && typeof issue.minimum !== 'undefined') {
    return `Must be at least ${String(issue.minimum)}`;
  }
  if (issue.code === 'too_big' && typeof issue.maximum !== 'undefined') {
    return `Must be at most ${String(issue.maximum)}`;
  }
  return 'Enter a number';
}

/**
 * The draft as a report style, checked by the API's own schema (ZReportStyle): the style, or an
 * error per field in words for people ("Enter a number", "Must be at most 18").
 */
export function styleOfDraft(draft: TStyleDraft): { style: TReportStyle } | { errors: TStyleErrors } {
  const n = (field: TStyleNumberField) => toNumber(draft.numbers[field]);
  const candidate = {
    font_size_pt: n('font_size_pt'),
    heading_sizes_pt: [n('heading_sizes_pt.0'), n('heading_sizes_pt.1'), n('heading_sizes_pt.2')],
    line_height: n('line_height'),
    margins_mm: {
      top: n('margins_mm.top'),
      right: n('margins_mm.right'),
      bottom: n('margins_mm.bottom'),
      left: n('margins_mm.left'),
    },
    header_height_mm: n('header_height_mm'),
    footer_height_mm: n('footer_height_mm'),
    signature_placement: draft.signature_placement,
    show_patient_block: draft.show_patient_block,
  };
  const parsed = ZReportStyle.safeParse(candidate);
  if (parsed.success) return { style: parsed.data };
  const errors: TStyleErrors = {};
  for (const issue of parsed.error.issues as readonly TIssue[]) {
    const field = fieldOfPath(issue.path);
    if (field && !errors[field]) errors[field] = issueText(issue);
  }
  return { errors };
}

/**
 * The inline error of a refused save: the server names the offending value's path in
 * `details.path` ("report_style.margins_mm.top") and says why in its message ("<path>: …").
 */
export function serverStyleErrors(details: unknown, message: string | undefined): TStyleErrors {
  if (typeof details !== 'object' || details === null || !('path' in details)) return {};
  const { path } = details;
  if (typeof path !== 'string') return {};
  const field = fieldOfPath(path.replace(/^report_style\.?/, '').split('.'));
  if (!field) return {};
  const reason = (message ?? '').replace(`${path}: `, '').trim();
  return { [field]: reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : 'Not accepted' };
}
