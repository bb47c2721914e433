import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { ZReportStatus } from './report-statuses.ts';

/** Largest report HTML (characters) a write may carry; the server answers 413/400 above it. */
export const MAX_REPORT_CONTENT_LENGTH = 1_000_000;
/** Largest key image (bytes). */
export const MAX_REPORT_IMAGE_BYTES = 10 * 1024 * 1024;
/** Largest patient document (bytes). */
export const MAX_PATIENT_DOCUMENT_BYTES = 25 * 1024 * 1024;

/** Report HTML on the wire; the server sanitises it on every write (allow-list of the editor's output). */
export const ZReportContent = z.string().max(MAX_REPORT_CONTENT_LENGTH);

/**
 * Where a key image is served (GET, bearer token); report HTML refers to images only by this path.
 */
export function reportImagePath(reportId: string, imageId: string): string {
  return `/api/v1/worklist/report/${reportId}/images/${imageId}`;
}

export const ZReportImage = z.object({
  id: ZUuid,
  /** reportImagePath(report id, image id): what an <img src> in the report holds. */
  url: z.string(),
  filename: z.string(),
  media_type: z.string(),
  size_bytes: z.number().int(),
  caption: z.string().nullable(),
  position: z.number().int(),
  created_at: z.iso.datetime({ offset: true }),
});
export type TReportImage = z.infer<typeof ZReportImage>;

/** Someone who wrote or signed the report. */
export const ZReportAuthor = z.object({
  user_id: ZUuid,
  display_name: z.string(),
  role: z.string(),
  /** Signed the final report (its signature block). */
  signed: z.boolean(),
  last_edited_at: z.iso.datetime({ offset: true }).nullable(),
});
export type TReportAuthor = z.infer<typeof ZReportAuthor>;

/** An addendum to a FINAL report: a later version shown and printed below the original. */
export const ZReportAddendum = z.object({
  version: z.number().int(),
  content: z.string(),
  created_by: ZUuid.nullable(),
  created_by_display_name: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type TReportAddendum = z.infer<typeof ZReportAddendum>;

/**
 * What the caller may do with the report now: the server's report policy (report.policy.ts canReport,
 * the actions of its typed union, and its rules for renderings and deliveries) together with the
 * state of the report and its study. The web shows exactly the actions marked true; the server still
 * checks each request.
 */
export const ZReportAbilities = z
  .object({
    /** Write content and key images (PUT /worklist/report/{id}, save as draft, images). */
    edit: z.boolean(),
    /** Submit the draft for review (PUT /worklist/{id} status IN_REVIEW). */
    submit: z.boolean(),
    /** Return the report from review to draft (PUT /worklist/{id} status DRAFTED). */
    return: z.boolean(),
    /** Finalize (POST /worklist/report/pdf-generate status FINAL). */
    finalize: z.boolean(),
    /** Add an addendum to the final report (POST /worklist/report/{id}/addendum). */
    addendum: z.boolean(),
    /** Send the final report by e-mail or WhatsApp (POST /comm/{email,whatsapp}/send-report-pdf). */
    share: z.boolean(),
    /** Preview unsaved HTML as the report (POST /worklist/report/preview/pdf): editors only. */
    preview: z.boolean(),
    /** Download the report signed by chosen radiologists (POST /worklist/report/by-rad/pdf|docx). */
    choose_signers: z.boolean(),
  })
  .describe("The caller's abilities on this report (computed by the server's report policy)");
export type TReportAbilities = z.infer<typeof ZReportAbilities>;

/** GET /worklist/{id}/report and every report write. */
export const ZReport = z.object({
  id: ZUuid,
  worklist_id: ZUuid,
  status: ZReportStatus,
  /** Increases on every saved change; a write must send the version it started from. */
  version: z.number().int().positive(),
  /** Sanitised HTML of the report body (without addenda). */
  content: z.string(),
  /**
   * Signed, short-lived download path of the report's current stored PDF (a GET without the bearer
   * token), or null before one exists. Made anew with every response.
   */
  pdf_url: z.string().nullable(),
  /** SHA-256 (hex) of the PDF stored at finalisation, which is never replaced; null before. */
  final_pdf_sha256: z.string().nullable(),
  images: z.array(ZReportImage),
  authors: z.array(ZReportAuthor),
  addenda: z.array(ZReportAddendum),
  updated_by: ZUuid.nullable(),
  updated_by_display_name: z.string().nullable(),
  finalized_by: ZUuid.nullable(),
  finalized_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  abilities: ZReportAbilities,
});
export type TReport = z.infer<typeof ZReport>;

/** POST /worklist/report: the study's report (one per study; 409 when it exists). */
export const ZCreateReportBody = z.object({
  worklist_id: ZUuid,
  content: ZReportContent.default(''),
  by_user_id: ZUuid,
});
export type TCreateReportBody = z.infer<typeof ZCreateReportBody>;

/** PUT /worklist/report/{id}: optimistic concurrency on `version` (409 naming who changed it). */
export const ZUpdateReportBody = z.object({
  content: ZReportContent,
  version: z.number().int().positive(),
  by_user_id: ZUuid,
});
export type TUpdateReportBody = z.infer<typeof ZUpdateReportBody>;

/** POST /worklist/report/save: save as draft (report DRAFTED, study DRAFTED). */
export const ZSaveReportBody = z.object({ report_id: ZUuid, by_user_id: ZUuid });
export type TSaveReportBody = z.infer<typeof ZSaveReportBody>;

/** Statuses POST /worklist/report/pdf-generate accepts; FINAL finalizes the report. */
export const PDF_GENERATE_STATUSES = ['DRAFTED', 'FINAL'] as const;
export const ZPdfGenerateBody = z.object({
  report_id: ZUuid,
  /** The editor's HTML at the moment of finalizing; stored (sanitised) as the final content. */
  html_content: ZReportContent.optional(),
  status: z.enum(PDF_GENERATE_STATUSES),
  /** Version the client saw; when given, a stale one answers 409 instead of finalizing. */
  version: z.number().int().positive().optional(),
});
export type TPdfGenerateBody = z.infer<typeof ZPdfGenerateBody>;

/** POST /worklist/report/{id}/addendum. */
export const ZAddendumBody = z.object({
  content: ZReportContent.refine((html) => html.trim().length > 0, 'Addendum text is required'),
  by_user_id: ZUuid,
});
export type TAddendumBody = z.infer<typeof ZAddendumBody>;

/**
 * Review hand-off through PUT /worklist/{id}: status IN_REVIEW submits a draft for review (the
 * assigned radiologist is notified); status DRAFTED from IN_REVIEW returns it, with a comment.
 */
export const ZReviewTransition = z.object({
  status: z.enum(['IN_REVIEW', 'DRAFTED']),
  comment: z.string().trim().max(2000).optional(),
});
export type TReviewTransition = z.infer<typeof ZReviewTransition>;
