import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { unauthenticated } from '../../auth/auth-errors.ts';
import { AppError } from '../../http/app-error.ts';
import { sessionClaimsOf, VIEWER_COOKIE, VIEWER_COOKIE_PATH } from './viewer-passes.ts';

const ZOpenQuery = z.object({ ticket: z.string().min(1).max(1024) });

/**
 * GET /viewer/open?ticket=… (no bearer token: a new browser tab): a valid ticket of GET /dicom/viewer
 * (≤ 60 s old, its sign-in session still good) becomes the viewer's cookie (HttpOnly, SameSite=Strict,
 * Path=/dicom-web, Secure over https), and the tab goes on to OHIF's page of the ticket's study. A
 * navigation another site started is refused (Sec-Fetch-Site), so no one can plant their cookie.
 * Register inside the /viewer scope, after @fastify/cookie.
 */
export function registerViewerOpen(app: FastifyInstance): void {
  const { config } = app.deps;
  app.get('/open', { schema: { hide: true } }, async (request, reply) => {
    // Only the RIS's own pages open the viewer: another site must not plant its ticket's cookie
    // in this browser (browsers say where a navigation comes from; other clients send nothing).
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      throw new AppError('FORBIDDEN', 'Open the study from the RIS to view its images.');
    }
    const query = ZOpenQuery.safeParse(request.query);
    const ticket = query.success ? app.viewerPasses.verify('ticket', query.data.ticket) : null;
    if (!ticket || ticket.studyUid === null) {
      throw unauthenticated('This viewer link has expired: open the study from the RIS again.');
    }
    await app.identity.verifier.verifySession(sessionClaimsOf(ticket));
    const seconds = app.viewerPasses.cookieSeconds;
    const value = app.viewerPasses.issue('cookie', { ...ticket, studyUid: null }, seconds);
    reply.setCookie(VIEWER_COOKIE, value, {
      path: VIEWER_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: config.publicUrl.startsWith('https:'),
      maxAge: seconds,
    });
    reply.header('cache-control', 'no-store');
    return reply.redirect(`/viewer/viewer?StudyInstanceUIDs=${encodeURIComponent(ticket.studyUid)}`, 303);
  });
}
