import {
  ZAddendumBody,
  ZCreateReportBody,
  ZErrorBody,
  ZPdfGenerateBody,
  ZReport,
  ZSaveReportBody,
  ZUpdateReportBody,
  ZUuid,
} from '@ris/domain';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope, type TScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { errorBody, errorHandler } from '../../http/error-handler.ts';
import { ZErrorResponses, ZRenderErrorResponses } from '../../http/openapi-errors.ts';
import { assertActingAs } from '../../access/acting-as.ts';
import { addAddendum, createReport, finalizeReport, saveDraft, updateReport } from './report-commands.ts';
import { reportImageRoutes } from './report-images.routes.ts';
import { publishReportOutcome } from './report-publish.ts';
import { mayReadReport } from './report.policy.ts';
import { presentReport } from './report.presenter.ts';
import { findVisibleStudyReport } from './report.queries.ts';
import { enqueueFinalReportWebhook } from '../../integrations/webhooks/final-report-webhook.ts';

const security = [{ bearerAuth: [] }];
const tags = ['reports'];

/** Room for MAX_REPORT_CONTENT_LENGTH characters of any script as JSON (zod names `content` above it). */
const REPORT_BODY_LIMIT = 6 * 1024 * 1024;

const ZWriteResponses = {
  ...ZErrorResponses,
  409: ZErrorBody.describe(
    'Stale version (the message names who changed it; details.current_version), a final report (use an addendum), or a study not in a writable state',
  ),
  413: ZErrorBody.describe('content is too large'),
};

/** A body beyond the route's limit names the report content, like the schema's limit does. */
function reportErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return reply
      .status(413)
      .send(errorBody('PAYLOAD_TOO_LARGE', 'content: the report is too large', { field: 'content' }));
  }
  return errorHandler(error, request, reply);
}

const writeOptions = { bodyLimit: REPORT_BODY_LIMIT, errorHandler: reportErrorHandler };

/**
 * Reports of worklist items (spec §7 "Reports"): read, create, write with optimistic concurrency,
 * save as draft, finalize, addenda; key images and patient documents in their own files.
 */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const scopeOf = (request: FastifyRequest) => loadScope(db, requirePrincipal(request));
  /** Who a report is presented to: their abilities and pdf_url (a signed download path) go with it. */
  const viewerOf = (scope: TScope) => ({
    scope,
    pdfLinkFor: app.reportDownloads.linkFor(scope.principal.userId),
  });

  app.get(
    '/worklist/:id/report',
    {
      schema: {
        tags,
        security,
        summary: 'The report of a worklist item (404 when the item is not visible or has no report yet)',
        description: 'Referring physicians read only FINAL reports.',
        params: z.object({ id: ZUuid }),
        response: { 200: ZReport, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const found = await findVisibleStudyReport(db, scope, request.params.id);
      if (!found?.report || !mayReadReport(scope.principal, found.study)) throw AppError.notFound('Report');
      return presentReport(db, found.report, viewerOf(scope));
    },
  );

  app.post(
    '/worklist/report',
    {
      ...writeOptions,
      schema: {
        tags,
        security,
        summary: "Create the item's report (201), or return the one that exists (200)",
        description:
          'One report per item: when two people open an item at once, both get the same report. Creating needs edit rights and an ASSIGNED, DRAFTED or IN_REVIEW item.',
        body: ZCreateReportBody,
        response: { 200: ZReport, 201: ZReport, ...ZWriteResponses },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request);
      assertActingAs(scope.principal, request.body.by_user_id);
      const { report, created } = await db.transaction((tx) =>
        createReport(tx, { scope, studyId: request.body.worklist_id, html: request.body.content }),
      );
      return reply.status(created ? 201 : 200).send(await presentReport(db, report, viewerOf(scope)));
    },
  );

  app.put(
    '/worklist/report/:id',
    {
      ...writeOptions,
      schema: {
        tags,
        security,
        summary: 'Write the report content (optimistic concurrency on version)',
        description:
          'The content is sanitised. Unchanged content changes nothing; changed content becomes version + 1 (every version is kept). A stale version answers 409 naming who changed the report.',
        params: z.object({ id: ZUuid }),
        body: ZUpdateReportBody,
        response: { 200: ZReport, ...ZWriteResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const { body } = request;
      assertActingAs(scope.principal, body.by_user_id);
      const outcome = await db.transaction((tx) =>
        updateReport(tx, { scope, reportId: request.params.id, html: body.content, version: body.version }),
      );
      await publishReportOutcome(app, outcome);
      return presentReport(db, outcome.report, viewerOf(scope));
    },
  );

  app.post(
    '/worklist/report/save',
    {
      schema: {
        tags,
        security,
        summary: 'Save as draft: report DRAFTED, item DRAFTED (from ASSIGNED)',
        body: ZSaveReportBody,
        response: { 200: ZReport, ...ZWriteResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      assertActingAs(scope.principal, request.body.by_user_id);
      // What the editors typed up to now, not what the last debounced store wrote.
      await app.reportDocuments.flush({ reportId: request.body.report_id });
      const outcome = await db.transaction((tx) =>
        saveDraft(tx, { scope, reportId: request.body.report_id }),
      );
      await publishReportOutcome(app, outcome);
      return presentReport(db, outcome.report, viewerOf(scope));
    },
  );

  app.post(
    '/worklist/report/pdf-generate',
    {
      ...writeOptions,
      schema: {
        tags,
        security,
        summary: 'Finalize (status FINAL) or save as draft (status DRAFTED)',
        description:
          "FINAL: only the assigned radiologist or an administrator; html_content (sanitised) becomes the final content, checked against version when given; report COMPLETED, item FINAL, the finalizer signs. Both statuses render the report's PDF (without letterhead) in the same transaction and store it as pdf_url; at FINAL it is also kept as the final original (final_pdf_sha256), never replaced. A failed render changes nothing.",
        body: ZPdfGenerateBody,
        response: { 200: ZReport, ...ZWriteResponses, ...ZRenderErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const { body } = request;
      const input = { scope, reportId: body.report_id, html: body.html_content, version: body.version };
      // Without html_content the stored content is finalized: first store what the editors typed.
      await app.reportDocuments.flush({ reportId: body.report_id });
      const final = body.status === 'FINAL';
      // The PDF is stored in the same transaction: a failed render finalizes nothing. A long report is
      // rendered before that transaction, never while it is open (events/report-pdfs.ts).
      const createdBy = scope.principal.userId;
      const { result, report } = await app.reportPdfs.runWith(
        async (tx) => {
          const changed = final ? await finalizeReport(tx, input) : await saveDraft(tx, input);
          // The external report service hears of the final report durably (a job in this transaction).
          if (final) await enqueueFinalReportWebhook(tx, app.deps.config, changed.report.id);
          return changed;
        },
        (changed) => ({ report: changed.report, createdBy, final }),
      );
      const outcome = { ...result, report };
      await publishReportOutcome(app, outcome);
      return presentReport(db, outcome.report, viewerOf(scope));
    },
  );

  app.post(
    '/worklist/report/:id/addendum',
    {
      ...writeOptions,
      schema: {
        tags,
        security,
        summary: 'Add an addendum to a final report (a new version; the original stays)',
        description:
          'Only the assigned radiologist or an administrator, and only on a COMPLETED report. A new PDF with the addendum becomes pdf_url; the final original (final_pdf_sha256) stays.',
        params: z.object({ id: ZUuid }),
        body: ZAddendumBody,
        response: { 201: ZReport, ...ZWriteResponses, ...ZRenderErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request);
      assertActingAs(scope.principal, request.body.by_user_id);
      // A new current PDF with the addendum (the final original and its hash stay), stored with it.
      const { report } = await app.reportPdfs.runWith(
        (tx) => addAddendum(tx, { scope, reportId: request.params.id, html: request.body.content }),
        (result) => ({ report: result, createdBy: scope.principal.userId, final: false }),
      );
      return reply.status(201).send(await presentReport(db, report, viewerOf(scope)));
    },
  );

  await app.register(reportImageRoutes);
};
