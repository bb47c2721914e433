// Key images of a report: attached by its editors, served to everyone who may read the report (the
// only <img src> the report sanitiser keeps is reportImagePath(report id, image id)).
import { MAX_REPORT_IMAGE_BYTES } from '@ris/domain';
import { and, eq, max } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx, TTx } from '../../db/client.ts';
import { reportImages, storedFiles } from '../../db/schema/index.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { storeFile } from '../../files/stored-files.ts';
import { AppError } from '../../http/app-error.ts';
import type { TFormLimits, TUpload } from '../../http/multipart.ts';
import { assertReportWritable } from './report-content.ts';
import { authorizeReport } from './report.policy.ts';
import { requireReadableReport, type TVisibleReport } from './report.queries.ts';

export const REPORT_IMAGE_LIMITS: TFormLimits = {
  noun: 'image',
  accept: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  acceptLabel: 'PNG, JPEG, WebP or GIF',
  maxBytes: MAX_REPORT_IMAGE_BYTES,
  maxFiles: 10,
  maxTotalBytes: 4 * MAX_REPORT_IMAGE_BYTES,
};

/** A report the caller may edit now: 404 / 403 / 409 (final or study not writable). */
export async function requireImageEditor(
  db: TDbOrTx,
  scope: TScope,
  reportId: string,
  options: { lockStudy?: boolean } = {},
): Promise<TVisibleReport> {
  const row = await requireReadableReport(db, scope, reportId, options);
  authorizeReport(scope.principal, 'edit', row.study);
  assertReportWritable(row.report.status, row.study.status);
  return row;
}

/** POST /worklist/report/{id}/upload-images: the files (checked beforehand) appended in order. */
export async function attachReportImages(
  tx: TTx,
  blobs: BlobStore,
  input: { scope: TScope; reportId: string; files: readonly TUpload[] },
): Promise<TVisibleReport> {
  const row = await requireImageEditor(tx, input.scope, input.reportId, { lockStudy: true });
  const [last] = await tx
    .select({ position: max(reportImages.position) })
    .from(reportImages)
    .where(eq(reportImages.reportId, row.report.id));
  let position = (last?.position ?? -1) + 1;
  for (const file of input.files) {
    const stored = await storeFile(tx, blobs, {
      data: file.data,
      originalName: file.filename,
      organisationId: row.report.organisationId,
      createdBy: input.scope.principal.userId,
      accept: REPORT_IMAGE_LIMITS.accept,
      maxBytes: REPORT_IMAGE_LIMITS.maxBytes,
    });
    await tx.insert(reportImages).values({ reportId: row.report.id, fileId: stored.id, position });
    position += 1;
  }
  return row;
}

/**
 * DELETE /worklist/report/{report_id}/images/{image_id}. The image leaves the report's list; the
 * stored file stays (earlier versions of the report may show it).
 */
export async function removeReportImage(
  tx: TTx,
  input: { scope: TScope; reportId: string; imageId: string },
): Promise<TVisibleReport> {
  const row = await requireImageEditor(tx, input.scope, input.reportId, { lockStudy: true });
  const deleted = await tx
    .delete(reportImages)
    .where(and(eq(reportImages.id, input.imageId), eq(reportImages.reportId, row.report.id)))
    .returning({ id: reportImages.id });
  if (deleted.length === 0) throw AppError.notFound('Image');
  return row;
}

/** One image of a report the caller may read, with its stored file (404 otherwise). */
export async function findReportImage(db: TDbOrTx, scope: TScope, reportId: string, imageId: string) {
  const row = await requireReadableReport(db, scope, reportId);
  const [found] = await db
    .select({ image: reportImages, file: storedFiles })
    .from(reportImages)
    .innerJoin(storedFiles, eq(storedFiles.id, reportImages.fileId))
    .where(and(eq(reportImages.id, imageId), eq(reportImages.reportId, row.report.id)));
  if (!found) throw AppError.notFound('Image');
  return found;
}
