import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-handler.ts';

const API_PREFIXES = ['/api/', '/ws/', '/collab'];
/** Paths the server answers itself, never with the web app (/metrics too when metrics are off). */
const SERVER_PATHS = ['/api', '/metrics'];

function isApiPath(url: string): boolean {
  return SERVER_PATHS.includes(url) || API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/**
 * Serves the built single-page app at `/`: hashed assets cached for a year, `index.html` never cached,
 * and any other GET that is not an API path falls back to `index.html` so deep links work.
 * Unknown API paths answer the JSON error shape with 404.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexPath = path.join(webDistDir, 'index.html');
  const hasSpa = existsSync(indexPath);
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ webDistDir }, 'web app not built: run `npm run build` to serve it at /');
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (isApiPath(url) || !wantsPage) {
      return reply.status(404).send(errorBody('NOT_FOUND', `No route for ${request.method} ${url}`));
    }
    if (!hasSpa) {
      return reply
        .status(404)
        .send(errorBody('NOT_FOUND', 'The web app is not built. Run `npm run build`, then restart.'));
    }
    // Files that exist have their own routes (wildcard: false registers one per built file), so a
    // path with an extension that reached here is a missing asset, not a client route.
    if (/\.[a-z0-9]+$/i.test(url)) {
      return reply.status(404).send(errorBody('NOT_FOUND', `No file at ${url}`));
    }
    return reply
      .header('cache-control', 'no-cache')
      .sendFile('index.html', webDistDir, { cacheControl: false });
  });
}
