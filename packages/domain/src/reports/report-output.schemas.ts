// Report output (PDF / DOCX with or without letterhead): request bodies and the report style.
import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { MAX_REPORT_CONTENT_LENGTH } from './report.schemas.ts';

/** The most radiologists a by-radiologist document may be signed by. */
export const MAX_SIGNING_RADIOLOGISTS = 10;
/** Report HTML sent for a preview is limited exactly like a report save (characters). */
export const MAX_PREVIEW_HTML_LENGTH = MAX_REPORT_CONTENT_LENGTH;

/** `true`/`false` as JSON booleans or as the strings a multipart or query form sends. */
export const ZFormBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1'),
]);

export const SIGNATURE_PLACEMENTS = ['left', 'center', 'right'] as const;
export type TSignaturePlacement = (typeof SIGNATURE_PLACEMENTS)[number];

/**
 * The organisation's report layout (organisation.report_style, sent as serialized JSON text).
 * Every field has a default, so `{}` (or no style at all) is a complete A4 layout; unknown keys are
 * refused so a typo does not silently do nothing. Lengths are millimetres, sizes points.
 */
export const ZReportStyle = z
  .object({
    /** Body text size. */
    font_size_pt: z.number().min(7).max(18).default(10.5),
    /** Sizes of report headings h1, h2, h3. */
    heading_sizes_pt: z
      .tuple([z.number().min(8).max(32), z.number().min(8).max(32), z.number().min(8).max(32)])
      .default([15, 13, 11.5]),
    /** Line height as a multiple of the font size. */
    line_height: z.number().min(1).max(2.5).default(1.3),
    /** Page margins of the body (inside the header and footer space). */
    margins_mm: z
      .object({
        top: z.number().min(5).max(60).default(12),
        right: z.number().min(5).max(60).default(18),
        bottom: z.number().min(5).max(60).default(12),
        left: z.number().min(5).max(60).default(18),
      })
      .strict()
      .default({ top: 12, right: 18, bottom: 12, left: 18 }),
    /** Space kept at the top of every page for the letterhead header (image or pre-printed paper). */
    header_height_mm: z.number().min(0).max(90).default(32),
    /** Space kept at the bottom of every page for the letterhead footer. */
    footer_height_mm: z.number().min(0).max(60).default(18),
    /** Where the signature blocks sit under the report. */
    signature_placement: z.enum(SIGNATURE_PLACEMENTS).default('right'),
    /** Show the patient/study block at the top of the first page. */
    show_patient_block: z.boolean().default(true),
  })
  .strict();
export type TReportStyle = z.infer<typeof ZReportStyle>;
export const DEFAULT_REPORT_STYLE: TReportStyle = ZReportStyle.parse({});

/** POST /worklist/report/preview/pdf: the editor's current HTML rendered without storing anything. */
export const ZPreviewPdfBody = z.object({
  html_content: z.string().max(MAX_PREVIEW_HTML_LENGTH),
  worklist_id: ZUuid,
  is_letterhead_enabled: ZFormBoolean.default(false),
});
export type TPreviewPdfBody = z.infer<typeof ZPreviewPdfBody>;

/** POST /worklist/report/preview/docx and POST /worklist/report/primary-rad/pdf: the stored report. */
export const ZReportDocumentBody = z.object({
  worklist_id: ZUuid,
  is_letterhead_enabled: ZFormBoolean.default(false),
});
export type TReportDocumentBody = z.infer<typeof ZReportDocumentBody>;

/** POST /worklist/report/by-rad/pdf and /by-rad/docx: signed by the chosen radiologists, in order. */
export const ZByRadDocumentBody = ZReportDocumentBody.extend({
  rad_user_ids: z.array(ZUuid).min(1).max(MAX_SIGNING_RADIOLOGISTS),
});
export type TByRadDocumentBody = z.infer<typeof ZByRadDocumentBody>;

/** The file name a downloaded report gets: "{patient name}_report.{ext}", safe on every system. */
export function reportFileName(patientName: string, extension: 'pdf' | 'docx'): string {
  const safe = patientName
    .normalize('NFC')
    // Path separators, reserved characters of Windows/macOS and control characters.
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 120)
    .trim();
  return `${safe === '' ? 'patient' : safe}_report.${extension}`;
}

/** GET /worklist/report/{id}/pdf: the signed, short-lived download link's parts (pdf_url). */
export const ZReportDownloadQuery = z.object({
  uid: ZUuid,
  expires: z.coerce.number().int().nonnegative(),
  signature: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hexadecimal characters'),
});
export type TReportDownloadQuery = z.infer<typeof ZReportDownloadQuery>;
