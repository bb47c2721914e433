// Security headers on every response (the single-page app, its assets, the API, Swagger UI, errors),
// set by helmet before any route runs. The Content-Security-Policy is defence in depth for
// the report editor: even if markup slipped through the sanitiser and the document model, no script
// but our own bundles runs, nothing loads from another origin, and the app cannot be framed.
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * What the built app needs: its own scripts and styles (React and TipTap set inline style
 * attributes: 'unsafe-inline' for styles only), images from itself, object URLs of images and PDFs
 * fetched with the token (blob:) and inline SVG icons (data:), the API, socket.io and Hocuspocus on
 * the same origin (ws:/wss: for the sockets), and patient PDFs shown in a frame from a blob: URL.
 */
export const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'blob:', 'data:'],
  // Recorded dictations play from object URLs of audio fetched with the token.
  'media-src': ["'self'", 'blob:'],
  // …and the workstation's viewer agent (ris-viewer-agent on 127.0.0.1:8843, spec §7), which answers
  // only this RIS's pages.
  'connect-src': ["'self'", 'ws:', 'wss:', 'http://127.0.0.1:8843'],
  'font-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'frame-src': ["'self'", 'blob:'],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * Registers the headers for the whole application (call before any route is registered). helmet's
 * middleware is built once: @fastify/helmet built it again for every request (parsing the policy
 * each time, a few percent of a worklist request's CPU).
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const setHeaders = helmet({
    // Exactly the policy above: helmet's defaults would add upgrade-insecure-requests, which breaks
    // an installation served over plain HTTP on a private network.
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // HSTS is the TLS terminator's decision (it knows the domain and its subdomains), not the app's.
    strictTransportSecurity: false,
    // The app embeds nothing cross-origin; require-corp would only get in the way of blob: frames.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
}
