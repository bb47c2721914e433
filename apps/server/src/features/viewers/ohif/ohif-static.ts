// The built-in OHIF under /viewer/ (register with prefix '/viewer'): the package's files as they are
// (hashed bundles cached for a year, the rest revalidated), index.html rewritten for /viewer/ and
// app-config.js written here, both never cached; any other page path is OHIF's own route (SPA
// fallback to index.html). Every answer under /viewer/ carries the viewer's policy instead of the
// app's (web workers, WebAssembly codecs) and is cross-origin isolated (COEP), which lets OHIF use
// SharedArrayBuffer; the app's policy is unchanged everywhere else.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { errorBody } from '../../../http/error-handler.ts';
import { DICOM_WEB_PREFIX } from '../dicom-web/dicom-web.routes.ts';
import { registerViewerOpen } from '../viewer-open.ts';
import { ohifConfigScript } from './ohif-config.ts';
import { ohifContentSecurityPolicy, rewriteOhifIndex } from './ohif-index.ts';

/** Content-hashed file names of the build: their content never changes. */
const HASHED = /(^|[./])[0-9a-f]{16}\.(js|wasm|woff2|css)$/;

export const ohifRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app.deps;
  const distDir = config.viewers.ohifDistDir;
  const indexPath = path.join(distDir, 'index.html');
  const installed = existsSync(indexPath);
  const index = installed ? rewriteOhifIndex(readFileSync(indexPath, 'utf8')) : null;
  const policy = ohifContentSecurityPolicy(index?.inlineScriptHashes ?? []);
  const configScript = ohifConfigScript(config.publicUrl, DICOM_WEB_PREFIX);

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', policy);
    reply.header('cross-origin-embedder-policy', 'require-corp');
    reply.header('cross-origin-opener-policy', 'same-origin');
    return payload;
  });

  await app.register(cookie);
  registerViewerOpen(app);

  if (!index) {
    app.log.warn({ distDir }, 'built-in viewer not installed: run `npm run fetch:ohif -w @ris/server`');
    app.setNotFoundHandler(async (_request, reply) =>
      reply
        .status(503)
        .send(
          errorBody(
            'SERVICE_UNAVAILABLE',
            'The built-in viewer is not installed on this server: run `npm run fetch:ohif -w @ris/server`.',
          ),
        ),
    );
    return;
  }

  const sendIndex = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index.html);

  app.get('/', { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));
  app.get('/index.html', { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));
  app.get('/app-config.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(configScript),
  );

  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    decorateReply: false,
    index: false,
    wildcard: true,
    // The marker of scripts/fetch-ohif.mjs is not part of the viewer.
    allowedPath: (pathname) => !pathname.endsWith('/ris-ohif.json'),
    setHeaders(res, filePath) {
      res.header(
        'cache-control',
        HASHED.test(path.basename(filePath)) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });

  // OHIF's own routes (/viewer/viewer?StudyInstanceUIDs=…): its page; a missing file: 404.
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send(errorBody('NOT_FOUND', `No route for ${request.method} ${url}`));
    }
    if (/\.[a-z0-9]+$/i.test(url)) return reply.status(404).send(errorBody('NOT_FOUND', `No file at ${url}`));
    return sendIndex(reply);
  });
};
