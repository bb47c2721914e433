import rateLimit from '@fastify/rate-limit';
import {
  MAX_PREVIEW_HTML_LENGTH,
  ZByRadDocumentBody,
  ZErrorBody,
  ZPreviewPdfBody,
  ZReportDocumentBody,
} from '@ris/domain';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { closeRendering, configureRendering } from '../../documents/render-pool.ts';
import { AppError } from '../../http/app-error.ts';
import { errorBody, errorHandler } from '../../http/error-handler.ts';
import { ZErrorResponses, ZRenderErrorResponses } from '../../http/openapi-errors.ts';
import { reportAccessFor } from '../reports/report.policy.ts';
import { findVisibleStudyReport } from '../reports/report.queries.ts';
import { sendAttachment } from './content-disposition.ts';
import { buildReportFile, type TReportFile, type TReportFileRequest } from './report-file.ts';
import { authorizeReportOutput, type TReportOutputAction } from './report-output.policy.ts';
import { userRateLimitOptions } from './user-rate-limit.ts';

/** Renders one user may ask for, all routes of this file together (each costs ~100 ms of CPU). */
export const RENDER_RATE_LIMIT = { max: 60, timeWindowMs: 60_000 };

const security = [{ bearerAuth: [] }];
const tags = ['report output'];

/** Room for MAX_PREVIEW_HTML_LENGTH characters of any script as JSON. */
const PREVIEW_BODY_LIMIT = 4 * MAX_PREVIEW_HTML_LENGTH;

const ZFileResponses = {
  ...ZErrorResponses,
  409: ZErrorBody.describe(
    'The study has no assigned radiologist, or a stored image the document needs is missing',
  ),
  413: ZErrorBody.describe('html_content is too large'),
  ...ZRenderErrorResponses,
  429: ZErrorBody.describe('Too many renders by this user'),
};

const LETTERHEAD_NOTE =
  "is_letterhead_enabled: the facility's letterhead header and footer images on every page when the facility has letterhead enabled; otherwise (or with false) the same space is left blank for pre-printed paper.";
const ACCESS_NOTE =
  "Anyone who may read the report (referring physicians: FINAL reports only); a study outside the caller's scope, or without a report, answers 404.";
const PREVIEW_ACCESS_NOTE =
  "Only who may edit the report now (administrators, the assigned radiologist, transcriptionists while collaboration is on; never a FINAL report): other readers get 403. The preview is always marked PRELIMINARY, without signing notes. A study outside the caller's scope, or without a report, answers 404.";
const BY_RAD_ACCESS_NOTE =
  "Administrators, facility administrators of the study's facility, and who may edit the report; other readers get 403. A study outside the caller's scope, or without a report, answers 404.";
const RATE_NOTE = `At most ${RENDER_RATE_LIMIT.max} renders per user per minute across the report output routes (429 beyond).`;
const FILE_NOTE =
  'The file is the response body, with Content-Disposition attachment; filename "{patient name}_report.{ext}" (RFC 6266, filename* for non-ASCII names) and Cache-Control no-store.';

function previewErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return reply
      .status(413)
      .send(
        errorBody('PAYLOAD_TOO_LARGE', 'html_content: the report is too large', { field: 'html_content' }),
      );
  }
  return errorHandler(error, request, reply);
}

function sendFile(reply: FastifyReply, file: TReportFile): FastifyReply {
  return sendAttachment(reply, { ...file, sizeBytes: file.data.byteLength, body: file.data });
}

/**
 * Report output (spec §7): previews and downloads of a study's report as PDF or DOCX, with or
 * without letterhead, signed by the report's signers, the assigned radiologist or chosen ones.
 * Nothing is stored; the report's own PDF (pdf_url) is stored by pdf-generate.
 */
export const reportOutputRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { blobs } = app.deps;
  // Every render of the process (these routes, the report's stored PDF, shared reports) runs in the
  // render pool's worker threads, with the budgets of the config (RENDER_*).
  configureRendering(app.deps.config.rendering);
  app.addHook('onClose', closeRendering);
  await app.register(
    rateLimit,
    userRateLimitOptions({
      name: 'render',
      ...RENDER_RATE_LIMIT,
      what: 'Too many report documents requested',
    }),
  );

  /** The study's report as the caller may read it (404 otherwise), authorised for `action`, then the file. */
  async function render(
    request: FastifyRequest,
    studyId: string,
    action: TReportOutputAction,
    file: Omit<TReportFileRequest, 'studyId' | 'organisationId' | 'signerIds'> & {
      signers?: 'primary' | readonly string[];
    },
  ): Promise<TReportFile> {
    const scope = await loadScope(db, requirePrincipal(request));
    const found = await findVisibleStudyReport(db, scope, studyId);
    if (!found?.report) throw AppError.notFound('Report');
    authorizeReportOutput(
      scope,
      found.study,
      reportAccessFor(scope, found.study, found.report.status),
      action,
    );
    const { signers, ...rest } = file;
    let signerIds: readonly string[] | undefined;
    if (signers === 'primary') {
      if (!found.study.lastAssignedUserId) {
        throw new AppError('CONFLICT', 'The study has no assigned radiologist to sign the report', {
          reason: 'no-assignee',
        });
      }
      signerIds = [found.study.lastAssignedUserId];
    } else {
      signerIds = signers;
    }
    return buildReportFile(db, blobs, { ...rest, studyId, organisationId: scope.organisationId, signerIds });
  }

  app.post(
    '/worklist/report/preview/pdf',
    {
      bodyLimit: PREVIEW_BODY_LIMIT,
      errorHandler: previewErrorHandler,
      schema: {
        tags,
        security,
        summary: "Preview the editor's current (unsaved) HTML as a PDF; nothing is stored",
        description: `html_content is sanitised like a report save before rendering. ${LETTERHEAD_NOTE} ${PREVIEW_ACCESS_NOTE} ${FILE_NOTE} ${RATE_NOTE}`,
        body: ZPreviewPdfBody,
        response: ZFileResponses,
      },
    },
    async (request, reply) => {
      const { body } = request;
      const file = await render(request, body.worklist_id, 'preview', {
        format: 'pdf',
        letterhead: body.is_letterhead_enabled,
        htmlOverride: body.html_content,
      });
      return sendFile(reply, file);
    },
  );

  app.post(
    '/worklist/report/preview/docx',
    {
      schema: {
        tags,
        security,
        summary: 'The stored report as a DOCX',
        description: `${LETTERHEAD_NOTE} ${ACCESS_NOTE} ${FILE_NOTE} ${RATE_NOTE}`,
        body: ZReportDocumentBody,
        response: ZFileResponses,
      },
    },
    async (request, reply) => {
      const { body } = request;
      const file = await render(request, body.worklist_id, 'render', {
        format: 'docx',
        letterhead: body.is_letterhead_enabled,
      });
      return sendFile(reply, file);
    },
  );

  app.post(
    '/worklist/report/primary-rad/pdf',
    {
      schema: {
        tags,
        security,
        summary: 'The stored report as a PDF signed by the assigned (primary) radiologist',
        description: `409 when the study has no assigned radiologist. ${LETTERHEAD_NOTE} ${ACCESS_NOTE} ${FILE_NOTE} ${RATE_NOTE}`,
        body: ZReportDocumentBody,
        response: ZFileResponses,
      },
    },
    async (request, reply) => {
      const { body } = request;
      const file = await render(request, body.worklist_id, 'render', {
        format: 'pdf',
        letterhead: body.is_letterhead_enabled,
        signers: 'primary',
      });
      return sendFile(reply, file);
    },
  );

  for (const format of ['pdf', 'docx'] as const) {
    app.post(
      `/worklist/report/by-rad/${format}`,
      {
        schema: {
          tags,
          security,
          summary: `The stored report as a ${format.toUpperCase()} signed by the chosen radiologists, in order`,
          description: `rad_user_ids: 1 to 10 active radiologists working at the study's facility (400 naming rad_user_ids otherwise; repeats count once). ${LETTERHEAD_NOTE} ${BY_RAD_ACCESS_NOTE} ${FILE_NOTE} ${RATE_NOTE}`,
          body: ZByRadDocumentBody,
          response: ZFileResponses,
        },
      },
      async (request, reply) => {
        const { body } = request;
        const file = await render(request, body.worklist_id, 'choose-signers', {
          format,
          letterhead: body.is_letterhead_enabled,
          signers: body.rad_user_ids,
        });
        return sendFile(reply, file);
      },
    );
  }
};
