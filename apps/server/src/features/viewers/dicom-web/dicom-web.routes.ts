import cookie from '@fastify/cookie';
import type { FastifyPluginAsync } from 'fastify';
import { unauthenticated } from '../../../auth/auth-errors.ts';
import { loadScope } from '../../../access/scope.ts';
import { AppError } from '../../../http/app-error.ts';
import { archiveOfStudy } from '../../../integrations/pacs/archive-connections.ts';
import { sessionClaimsOf, VIEWER_COOKIE } from '../viewer-passes.ts';
import { visibleStudyLocation } from '../viewers.queries.ts';
import { relayRead } from './dicom-web-relay.ts';
import { parseDicomWebRead } from './dicom-web-paths.ts';

export const DICOM_WEB_PREFIX = '/dicom-web';

/**
 * GET /dicom-web/… : the per-study DICOMweb proxy the built-in viewer (cookie) and Weasis
 * (/dicom-web/t/<pass>/…) read through. Order: the path must be a read of one study (400/404), the
 * pass valid (401), its sign-in session still good (401, the token verifier's checks), the study
 * within what the user may see now (404, the worklist's scope), then the study's archive is called
 * with its credentials and its answer streamed back.
 */
export const dicomWebRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps.database;
  const { config } = app.deps;
  await app.register(cookie);

  app.get(`${DICOM_WEB_PREFIX}/*`, { schema: { hide: true } }, async (request, reply) => {
    const parsed = parseDicomWebRead(request.url.slice(DICOM_WEB_PREFIX.length));
    if (!parsed.ok) {
      throw new AppError(parsed.status === 400 ? 'BAD_REQUEST' : 'NOT_FOUND', parsed.message);
    }
    const { read } = parsed;
    const pass =
      read.pass === null
        ? app.viewerPasses.verify('cookie', request.cookies[VIEWER_COOKIE])
        : app.viewerPasses.verify('weasis', read.pass);
    if (!pass) throw unauthenticated('Open the study from the RIS again: this viewer session has ended.');
    // A Weasis pass reads its own study only.
    if (pass.studyUid !== null && pass.studyUid !== read.studyUid) throw AppError.notFound('Study');
    const principal = await app.identity.verifier.verifySession(sessionClaimsOf(pass));
    const scope = await loadScope(db, principal);
    const location = await visibleStudyLocation(db, scope, read.studyUid);
    if (!location) throw AppError.notFound('Study');
    const connection = await archiveOfStudy(db, app.secretBox, config.viewers.dicomwebUrl, location);
    if (!connection) throw new AppError('NOT_FOUND', 'No image archive holds this study');
    const proxyRoot = `${config.publicUrl}${DICOM_WEB_PREFIX}${read.pass === null ? '' : `/t/${read.pass}`}`;
    return relayRead(request, reply, { connection, read, proxyRoot });
  });
};
