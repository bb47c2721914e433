import { VIEWER_LABELS, ZErrorBody, ZViewerLink, ZViewerQuery } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { archiveOfStudy } from '../../integrations/pacs/archive-connections.ts';
import { TICKET_SECONDS, WEASIS_PASS_SECONDS } from './viewer-passes.ts';
import { readsThroughProxy, viewerUrl, type TLinkContext } from './viewer-urls.ts';
import { recordStudyEvent } from '../studies/study-audit.ts';
import { facilityLocalNode, visibleStudyLocation } from './viewers.queries.ts';

/** GET /dicom/viewer (spec §7): the link that opens a study the caller may see in an image viewer. */
export const viewerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { config } = app.deps;
  const settings = config.viewers;

  app.get(
    '/dicom/viewer',
    {
      schema: {
        tags: ['viewers'],
        security: [{ bearerAuth: [] }],
        summary: 'The link that opens a study in an image viewer (OHIF, Weasis, Horos, RadiAnt)',
        description:
          'The study is looked up by its Study Instance UID within what the caller may see (404 otherwise; referring physicians see the studies they referred). OHIF is the built-in viewer at /viewer/ (the link carries a ticket valid 60 s that the viewer exchanges for a cookie of the DICOMweb proxy at /dicom-web), or the OHIF at VIEWER_OHIF_URL when set. Weasis reads through the same proxy with a study-bound pass in the path (30 min). Both need an image archive for the study (409 VIEWER_NOT_CONFIGURED otherwise). `local_ip`: when the study’s facility has its own image node (facility local_node_url) and local_ip is that node’s host, the OHIF link goes to the node; otherwise OHIF answers carry `local_node` (host, port) for the client to check.',
        querystring: ZViewerQuery,
        response: {
          200: ZViewerLink,
          ...ZErrorResponses,
          409: ZErrorBody.describe('No image archive holds the study for this viewer'),
        },
      },
    },
    async (request) => {
      const { study_iuid: studyUid, viewer_type: viewer, local_ip: localIp } = request.query;
      const principal = requirePrincipal(request);
      const scope = await loadScope(db, principal);
      const location = await visibleStudyLocation(db, scope, studyUid);
      if (!location) throw AppError.notFound('Study');
      const session = {
        userId: principal.userId,
        sessionId: principal.sessionId,
        organisationId: principal.organisationId,
        issuedAt: principal.issuedAt,
        studyUid,
      };
      const context: TLinkContext = {
        ohifUrl: settings.ohifUrl,
        publicUrl: config.publicUrl,
        pass: (kind) =>
          app.viewerPasses.issue(kind, session, kind === 'ticket' ? TICKET_SECONDS : WEASIS_PASS_SECONDS),
      };
      if (
        readsThroughProxy(viewer, context) &&
        !(await archiveOfStudy(db, app.secretBox, settings.dicomwebUrl, location))
      ) {
        throw new AppError(
          'VIEWER_NOT_CONFIGURED',
          `${VIEWER_LABELS[viewer]} cannot show this study: no image archive is set up for its facility. An administrator must add one (or set PACS_DICOMWEB_URL).`,
          { variable: 'PACS_DICOMWEB_URL' },
          409,
        );
      }
      // The facility's own node, for OHIF: its link when this workstation reaches it (local_ip),
      // else where it listens, so the client can check (spec §7).
      const node = viewer === 'ohif' ? await facilityLocalNode(db, location.facilityId) : null;
      const onNode = node !== null && localIp === node.host;
      const url = onNode
        ? `${node.url}/viewer?StudyInstanceUIDs=${encodeURIComponent(studyUid)}`
        : viewerUrl(viewer, studyUid, context);
      await recordStudyEvent(db, {
        action: 'study.viewer_opened',
        actorUserId: principal.userId,
        study: location,
        request,
        data: { viewer_type: viewer, ...(onNode ? { local_node: node.host } : {}) },
      });
      return {
        url,
        viewer_type: viewer,
        ...(node && !onNode ? { local_node: { host: node.host, port: node.port } } : {}),
      };
    },
  );
};
