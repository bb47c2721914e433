// GET /metrics for Prometheus, behind METRICS_TOKEN (`Authorization: Bearer <token>`). Not in the
// OpenAPI document: it is for the operator's scraper, not for API clients.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TScrape } from './metrics-registry.ts';
import { AppError } from '../../http/app-error.ts';

export const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header carries the token, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
  // Digests of equal length, so the comparison takes as long whatever was sent.
  const same = timingSafeEqual(digest(given ?? ''), digest(token));
  return given !== undefined && same;
}

export function metricsRoutes(metrics: TScrape, token: string) {
  return async function metricsRoute(app: FastifyInstance): Promise<void> {
    // Scrapes come every few seconds: their request lines only at warn, which a refusal is.
    app.get(METRICS_PATH, { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) {
        request.log.warn('metrics scrape refused: wrong or missing token');
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError(
          'UNAUTHENTICATED',
          'Metrics need the header "Authorization: Bearer <METRICS_TOKEN>".',
        );
      }
      const text = await metrics.scrape();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
    });
  };
}
