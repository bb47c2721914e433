import type { Readable } from 'node:stream';
import { reportFileName, ZErrorBody, ZReportDownloadQuery, ZUuid } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadScope } from '../../access/scope.ts';
import { linkPrincipal } from '../../auth/link-principal.ts';
import { reports, storedFiles } from '../../db/schema/index.ts';
import { BlobNotFoundError } from '../../files/blob-store.ts';
import { AppError } from '../../http/app-error.ts';
import { mayReadReport } from '../reports/report.policy.ts';
import { findVisibleReport } from '../reports/report.queries.ts';
import { sendAttachment } from './content-disposition.ts';
import { PDF_MEDIA_TYPE } from './report-file.ts';

const refused = () => new AppError('FORBIDDEN', 'This download link is invalid or has expired');

/**
 * GET of a report's pdf_url: public (no bearer token, so a browser can follow it as a plain link)
 * and guarded by the path's signature instead. Registered outside the authenticated scope.
 */
export const reportDownloadRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { blobs } = app.deps;

  app.get(
    '/worklist/report/:id/pdf',
    {
      schema: {
        tags: ['report output'],
        summary: "Download a report's stored PDF through its signed, short-lived pdf_url",
        description:
          'No bearer token: the path\'s signature (made for one user, one stored PDF and an expiry of REPORT_DOWNLOAD_URL_TTL_SECONDS) is the authorisation. It is refused (403, the same answer whatever the reason) once expired, when altered, when the report\'s PDF was replaced since, or when the user may no longer read the report. The PDF comes as an attachment named "{patient name}_report.pdf".',
        params: z.object({ id: ZUuid }),
        querystring: ZReportDownloadQuery,
        response: {
          400: ZErrorBody.describe('A missing or malformed uid, expires or signature'),
          403: ZErrorBody.describe('The link is invalid, expired, outdated or no longer authorised'),
          409: ZErrorBody.describe('The stored PDF is missing from file storage'),
        },
      },
    },
    async (request, reply) => {
      const reportId = request.params.id;
      const [report] = await db
        .select({
          organisationId: reports.organisationId,
          pdfFileId: reports.pdfFileId,
          finalPdfFileId: reports.finalPdfFileId,
        })
        .from(reports)
        .where(eq(reports.id, reportId));
      const fileId = report ? app.reportDownloads.verify(reportId, request.query, report) : null;
      if (!report || !fileId) throw refused();
      const principal = await linkPrincipal(db, request.query.uid, report.organisationId);
      const visible = principal
        ? await findVisibleReport(db, await loadScope(db, principal), reportId)
        : null;
      if (!principal || !visible || !mayReadReport(principal, visible.study)) throw refused();
      const [file] = await db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
      if (!file) throw refused();
      let body: Readable;
      try {
        body = await blobs.open(file.storageKey);
      } catch (error) {
        if (!(error instanceof BlobNotFoundError)) throw error;
        throw new AppError(
          'CONFLICT',
          "The report's PDF is missing from file storage; ask an administrator to restore it",
          { reason: 'file-missing' },
        );
      }
      return sendAttachment(reply, {
        mediaType: PDF_MEDIA_TYPE,
        fileName: reportFileName(visible.study.patientName, 'pdf'),
        sizeBytes: file.sizeBytes,
        body,
      });
    },
  );
};
