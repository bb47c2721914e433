// Report rows → the ZReport wire shape: images, authors (who wrote versions, who signed) and addenda.
import { reportImagePath, type TReport, type TReportAuthor, type TReportImage } from '@ris/domain';
import { and, asc, eq, inArray, max } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import type { TScope } from '../../access/scope.ts';
import {
  reportImages,
  reportSignatures,
  reportVersions,
  storedFiles,
  studies,
  users,
} from '../../db/schema/index.ts';
import { reportAbilities } from './report.policy.ts';
import type { TReportRow } from './report.queries.ts';

/** The key images of a report in display order. */
export async function loadReportImages(db: TDbOrTx, reportId: string): Promise<TReportImage[]> {
  const rows = await db
    .select({ image: reportImages, file: storedFiles })
    .from(reportImages)
    .innerJoin(storedFiles, eq(storedFiles.id, reportImages.fileId))
    .where(eq(reportImages.reportId, reportId))
    .orderBy(asc(reportImages.position), asc(reportImages.createdAt));
  return rows.map(({ image, file }) => ({
    id: image.id,
    url: reportImagePath(reportId, image.id),
    filename: file.originalName ?? 'image',
    media_type: file.mediaType,
    size_bytes: file.sizeBytes,
    caption: image.caption,
    position: image.position,
    created_at: image.createdAt.toISOString(),
  }));
}

type TUserName = { id: string; displayName: string; role: string | null };

async function loadUsers(db: TDbOrTx, ids: (string | null)[]): Promise<Map<string, TUserName>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, displayName: users.displayName, role: users.role })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Who wrote versions of the report, with their last edit (one row per user). */
function loadEditors(db: TDbOrTx, reportId: string) {
  return db
    .select({ userId: reportVersions.createdBy, lastEditedAt: max(reportVersions.createdAt) })
    .from(reportVersions)
    .where(eq(reportVersions.reportId, reportId))
    .groupBy(reportVersions.createdBy);
}

function loadAddenda(db: TDbOrTx, reportId: string) {
  return db
    .select()
    .from(reportVersions)
    .where(and(eq(reportVersions.reportId, reportId), eq(reportVersions.kind, 'ADDENDUM')))
    .orderBy(asc(reportVersions.version));
}

function loadSignatures(db: TDbOrTx, reportId: string) {
  return db
    .select({ userId: reportSignatures.userId, signedAt: reportSignatures.signedAt })
    .from(reportSignatures)
    .where(eq(reportSignatures.reportId, reportId))
    .orderBy(asc(reportSignatures.signedAt));
}

/** The study facts the report policy decides on, as they are now (after the command that ran). */
async function loadStudyFacts(db: TDbOrTx, studyId: string) {
  const [row] = await db
    .select({
      status: studies.status,
      lastAssignedUserId: studies.lastAssignedUserId,
      collaborationEnabled: studies.collaborationEnabled,
      facilityId: studies.facilityId,
    })
    .from(studies)
    .where(eq(studies.id, studyId));
  if (!row) throw new Error(`report ${studyId} has no study`);
  return row;
}

/** pdf_url of a report for the caller (app.reportDownloads.linkFor(userId)): null without a stored PDF. */
export type TPdfLinkFor = (report: TReportRow) => string | null;

/** Who the report is presented to: their abilities and their download link go with it. */
export type TReportViewer = { scope: TScope; pdfLinkFor: TPdfLinkFor };

/** The report as the API returns it (GET /worklist/{id}/report and every report write). */
export async function presentReport(
  db: TDbOrTx,
  report: TReportRow,
  viewer: TReportViewer,
): Promise<TReport> {
  // Independent reads: concurrent on a pool (PostgreSQL), queued on PGlite.
  const [images, editors, addenda, signatures, study] = await Promise.all([
    loadReportImages(db, report.id),
    loadEditors(db, report.id),
    loadAddenda(db, report.id),
    loadSignatures(db, report.id),
    loadStudyFacts(db, report.studyId),
  ]);
  const names = await loadUsers(db, [
    ...editors.map((row) => row.userId),
    ...addenda.map((row) => row.createdBy),
    ...signatures.map((row) => row.userId),
    report.updatedBy,
    report.finalizedBy,
  ]);
  const signed = new Set(signatures.map((row) => row.userId));
  const authors = new Map<string, TReportAuthor>();
  const addAuthor = (userId: string | null, lastEditedAt: Date | null) => {
    if (!userId || authors.has(userId)) return;
    const user = names.get(userId);
    authors.set(userId, {
      user_id: userId,
      display_name: user?.displayName ?? '',
      role: user?.role ?? '',
      signed: signed.has(userId),
      last_edited_at: lastEditedAt ? new Date(lastEditedAt).toISOString() : null,
    });
  };
  for (const row of [...editors].sort((a, b) => timeOf(a.lastEditedAt) - timeOf(b.lastEditedAt))) {
    addAuthor(row.userId, row.lastEditedAt);
  }
  for (const row of signatures) addAuthor(row.userId, null);
  addAuthor(report.finalizedBy, null);
  return {
    id: report.id,
    worklist_id: report.studyId,
    status: report.status,
    version: report.version,
    content: report.content,
    pdf_url: viewer.pdfLinkFor(report),
    final_pdf_sha256: report.finalPdfSha256,
    images,
    authors: [...authors.values()],
    addenda: addenda.map((row) => ({
      version: row.version,
      content: row.content,
      created_by: row.createdBy,
      created_by_display_name: row.createdBy ? (names.get(row.createdBy)?.displayName ?? null) : null,
      created_at: row.createdAt.toISOString(),
    })),
    updated_by: report.updatedBy,
    updated_by_display_name: report.updatedBy ? (names.get(report.updatedBy)?.displayName ?? null) : null,
    finalized_by: report.finalizedBy,
    finalized_at: report.finalizedAt?.toISOString() ?? null,
    created_at: report.createdAt.toISOString(),
    updated_at: report.updatedAt.toISOString(),
    abilities: reportAbilities(viewer.scope, study, report.status),
  };
}

/** max() comes back as a Date or a string depending on the driver. */
function timeOf(value: Date | string | null): number {
  return value === null ? 0 : new Date(value).getTime();
}
