// The database side of report output: one study's report → TReportDocumentInput (everything the
// renderer draws, loaded and checked). Scoped by organisation only; routes check the caller's
// facility scope and report access first, delivery jobs act for the organisation.
import { DEFAULT_REPORT_STYLE, ZReportStyle, type TReportStyle } from '@ris/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { facilities, organisations, reports, reportVersions, studies, users } from '../../db/schema/index.ts';
import type { TLetterhead, TReportDocumentInput } from '../../documents/report-document.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { sanitizeReportHtml } from '../../html/sanitize-report-html.ts';
import { AppError } from '../../http/app-error.ts';
import { findStoredFile } from '../../files/stored-files.ts';
import { loadKeyImages, readDocumentImage } from './document-images.ts';
import { ageAt, ageSexLabel, formatDateTime, orDash, safeTimeZone } from './patient-block.ts';
import type { TReportFileRequest } from './report-file.ts';
import { loadSignatureBlocks } from './signers.ts';

export type TReportDocumentRequest = Omit<TReportFileRequest, 'format'>;

export type TLoadedReportDocument = {
  input: TReportDocumentInput;
  /** The study's patient name as stored (for the file name). */
  patientName: string;
  reportId: string;
};

type TFacilityRow = typeof facilities.$inferSelect;

/** The organisation's report_style: a stored style that no longer validates falls back to defaults. */
export function reportStyleOf(stored: unknown): TReportStyle {
  const parsed = ZReportStyle.safeParse(stored ?? {});
  return parsed.success ? parsed.data : DEFAULT_REPORT_STYLE;
}

/**
 * Letterhead requested and enabled on the facility → its images (a missing one leaves its space
 * blank); otherwise the same space blank, for pre-printed paper.
 */
async function letterheadOf(
  db: TDbOrTx,
  blobs: BlobStore,
  facility: TFacilityRow,
  requested: boolean,
): Promise<TLetterhead> {
  if (!requested || !facility.letterheadEnabled) return { mode: 'blank' };
  const [header, footer] = await Promise.all([
    findStoredFile(db, facility.letterheadHeaderFileId),
    findStoredFile(db, facility.letterheadFooterFileId),
  ]);
  return {
    mode: 'letterhead',
    header: await readDocumentImage(blobs, header, `The letterhead header of ${facility.name}`),
    footer: await readDocumentImage(blobs, footer, `The letterhead footer of ${facility.name}`),
  };
}

async function loadAddenda(db: TDbOrTx, reportId: string, timeZone: string) {
  const rows = await db
    .select({
      content: reportVersions.content,
      createdAt: reportVersions.createdAt,
      displayName: users.displayName,
    })
    .from(reportVersions)
    .leftJoin(users, eq(users.id, reportVersions.createdBy))
    .where(and(eq(reportVersions.reportId, reportId), eq(reportVersions.kind, 'ADDENDUM')))
    .orderBy(asc(reportVersions.version));
  return rows.map((row, index) => {
    const who = row.displayName?.trim();
    const when = formatDateTime(row.createdAt, timeZone);
    return { html: row.content, heading: `Addendum ${index + 1} — ${who ? `${who}, ` : ''}${when}` };
  });
}

/**
 * Loads the document of a study's report within the organisation: 404 "Worklist item" outside it,
 * 404 "Report" when the study has no report yet; 400 naming rad_user_ids for a chosen signer who is
 * not an active radiologist of the study's facility; 409 when a stored image it needs is missing.
 */
export async function loadReportDocument(
  db: TDbOrTx,
  blobs: BlobStore,
  request: TReportDocumentRequest,
): Promise<TLoadedReportDocument> {
  const [row] = await db
    .select({
      study: studies,
      report: reports,
      facility: facilities,
      reportStyle: organisations.reportStyle,
      organisationTimeZone: organisations.timeZone,
    })
    .from(studies)
    .innerJoin(facilities, eq(facilities.id, studies.facilityId))
    .innerJoin(organisations, eq(organisations.id, studies.organisationId))
    .leftJoin(reports, eq(reports.studyId, studies.id))
    .where(and(eq(studies.id, request.studyId), eq(studies.organisationId, request.organisationId)))
    .limit(1);
  if (!row) throw AppError.notFound('Worklist item');
  const { study, report, facility } = row;
  if (!report) throw AppError.notFound('Report');
  // The facility's own zone, else its organisation's (documents say which zone they print in).
  const timeZone = safeTimeZone(facility.timeZone ?? row.organisationTimeZone);
  // Unsaved text is never the report of record: a preview is marked PRELIMINARY and signed by no one.
  const preview = request.htmlOverride !== undefined;
  const final = report.status === 'COMPLETED' && !preview;

  const bodyHtml =
    request.htmlOverride === undefined
      ? report.content
      : sanitizeReportHtml(request.htmlOverride, { reportId: report.id });
  const addenda = await loadAddenda(db, report.id, timeZone);
  const images = await loadKeyImages(db, blobs, report.id, [bodyHtml, ...addenda.map((a) => a.html)]);
  const signed = await loadSignatureBlocks(db, blobs, {
    reportId: report.id,
    organisationId: request.organisationId,
    facilityId: facility.id,
    reportFinal: report.status === 'COMPLETED',
    assignedUserId: study.lastAssignedUserId,
    timeZone,
    signerIds: request.signerIds,
  });
  const signatures = preview ? signed.map((block) => ({ ...block, signedNote: null })) : signed;
  const letterhead = await letterheadOf(db, blobs, facility, request.letterhead);

  const studyAt = study.studyDatetime ?? study.createdAt;
  const studyName = study.studyDescription?.trim() || study.modality?.trim() || null;
  const input: TReportDocumentInput = {
    title: studyName ? `${studyName.toUpperCase()} — REPORT` : null,
    patient: {
      patientName: orDash(study.patientName),
      patientId: orDash(study.patientIdentifier),
      ageSex: ageSexLabel(ageAt(study.patientBirthDate, studyAt, timeZone), study.patientSex),
      modality: orDash(study.modality),
      study: orDash(study.studyDescription),
      accessionNumber: orDash(study.accessionNumber),
      studyDate: formatDateTime(study.studyDatetime, timeZone),
      reportDate: formatDateTime(report.finalizedAt ?? report.updatedAt, timeZone),
      referringPhysician: orDash(study.referringPhysicianName),
      facility: orDash(facility.name),
    },
    bodyHtml,
    images,
    signatures,
    addenda,
    letterhead,
    style: reportStyleOf(row.reportStyle),
    final,
    meta: {
      title: [study.patientName.trim(), studyName].filter(Boolean).join(' — ') || 'Radiology report',
      author: signatures[0]?.displayName ?? facility.name,
      createdAt: new Date(),
    },
  };
  return { input, patientName: study.patientName, reportId: report.id };
}
