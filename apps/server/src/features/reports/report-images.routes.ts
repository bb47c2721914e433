import { ZReport, ZUuid } from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope, type TScope } from '../../access/scope.ts';
import { readForm, registerMultipart } from '../../http/multipart.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { sendStoredFile } from '../../files/send-stored-file.ts';
import { checkUploads } from '../../files/upload-checks.ts';
import {
  attachReportImages,
  findReportImage,
  removeReportImage,
  REPORT_IMAGE_LIMITS,
  requireImageEditor,
} from './report-images.ts';
import { presentReport } from './report.presenter.ts';

const security = [{ bearerAuth: [] }];
const tags = ['reports'];

/** Key images: upload (editors), serve (readers), delete (editors). */
export const reportImageRoutes: FastifyPluginAsyncZod = async (app) => {
  // Multipart for the key image upload (this scope only).
  await registerMultipart(app, REPORT_IMAGE_LIMITS);
  const { db } = app.deps.database;
  const { blobs } = app.deps;
  const scopeOf = (request: FastifyRequest) => loadScope(db, requirePrincipal(request));
  /** Who a report is presented to: their abilities and pdf_url (a signed download path) go with it. */
  const viewerOf = (scope: TScope) => ({
    scope,
    pdfLinkFor: app.reportDownloads.linkFor(scope.principal.userId),
  });

  app.post(
    '/worklist/report/:id/upload-images',
    {
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        summary: 'Attach key images to a report (returns the report with its images)',
        description:
          'files: PNG, JPEG, WebP or GIF by content, at most 10 MB each and 40 MB together (up to 10 files); nothing is stored when any file is refused. Insert an image into the text as <img src="{image.url}">.',
        params: z.object({ id: ZUuid }),
        response: { 201: ZReport, ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request);
      // Scope and permission first: uploads of callers who may not edit are never read.
      await requireImageEditor(db, scope, request.params.id);
      const form = await readForm(request, REPORT_IMAGE_LIMITS);
      await checkUploads(form.files, REPORT_IMAGE_LIMITS);
      const row = await db.transaction((tx) =>
        attachReportImages(tx, blobs, { scope, reportId: request.params.id, files: form.files }),
      );
      return reply.status(201).send(await presentReport(db, row.report, viewerOf(scope)));
    },
  );

  app.get(
    '/worklist/report/:report_id/images/:image_id',
    {
      schema: {
        tags,
        security,
        summary: 'One key image of a report (to everyone who may read the report)',
        params: z.object({ report_id: ZUuid, image_id: ZUuid }),
        response: { ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request);
      const { image, file } = await findReportImage(
        db,
        scope,
        request.params.report_id,
        request.params.image_id,
      );
      return sendStoredFile(reply, blobs, file, file.originalName ?? `image-${image.id}`);
    },
  );

  app.delete(
    '/worklist/report/:report_id/images/:image_id',
    {
      schema: {
        tags,
        security,
        summary: 'Remove a key image from a report (editors, while the report is not final)',
        params: z.object({ report_id: ZUuid, image_id: ZUuid }),
        response: { 200: ZReport, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const row = await db.transaction((tx) =>
        removeReportImage(tx, {
          scope,
          reportId: request.params.report_id,
          imageId: request.params.image_id,
        }),
      );
      return presentReport(db, row.report, viewerOf(scope));
    },
  );
};
