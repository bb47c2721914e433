import { VIEWER_LABELS, ZErrorBody, ZViewerLink, ZViewerQuery } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { viewerUrl } from './viewer-urls.ts';
import { isStudyUidVisible } from './viewers.queries.ts';

/** GET /dicom/viewer (spec §7): the link that opens a study the caller may see in an image viewer. */
export const viewerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const settings = app.deps.config.viewers;

  app.get(
    '/dicom/viewer',
    {
      schema: {
        tags: ['viewers'],
        security: [{ bearerAuth: [] }],
        summary: 'The link that opens a study in an image viewer (OHIF, Weasis, Horos, RadiAnt)',
        description:
          'The study is looked up by its Study Instance UID within what the caller may see (404 otherwise; referring physicians see the studies they referred). OHIF needs VIEWER_OHIF_URL and Weasis PACS_DICOMWEB_URL on the server (409 VIEWER_NOT_CONFIGURED otherwise). `local_ip` is accepted and ignored: a viewer helper on the user’s machine is outside this product.',
        querystring: ZViewerQuery,
        response: {
          200: ZViewerLink,
          ...ZErrorResponses,
          409: ZErrorBody.describe('The viewer is not configured on this server'),
        },
      },
    },
    async (request) => {
      const { study_iuid: studyUid, viewer_type: viewer } = request.query;
      const scope = await loadScope(db, requirePrincipal(request));
      if (!(await isStudyUidVisible(db, scope, studyUid))) throw AppError.notFound('Study');
      const result = viewerUrl(viewer, studyUid, settings);
      if (!result.ok) {
        throw new AppError(
          'VIEWER_NOT_CONFIGURED',
          `${VIEWER_LABELS[viewer]} is not set up on this server: an administrator must set ${result.variable}.`,
          { variable: result.variable },
          409,
        );
      }
      return { url: result.url, viewer_type: viewer };
    },
  );
};
