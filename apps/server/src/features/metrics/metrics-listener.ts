// METRICS_PORT: /metrics on a listener of its own, without a token, for a scraper on a private
// network (the port is never published through the reverse proxy). Nothing else is served there.
import http from 'node:http';
import type { TScrape } from './metrics-registry.ts';
import { errorBody } from '../../http/error-handler.ts';
import { METRICS_PATH } from './metrics.routes.ts';

type TListenerLogger = { error(object: object, message: string): void };

function sendError(response: http.ServerResponse, status: number, code: string, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
    .end(JSON.stringify(errorBody(code, message)));
}

/** Listens on host:port; resolves once listening (rejects when the port is taken), with the closer. */
export async function listenForMetrics(
  metrics: TScrape,
  address: { host: string; port: number },
  log: TListenerLogger,
): Promise<() => Promise<void>> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) {
      sendError(response, 404, 'NOT_FOUND', `Only ${METRICS_PATH} is served on this port.`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendError(response, 405, 'METHOD_NOT_ALLOWED', `${METRICS_PATH} answers GET only.`);
      return;
    }
    metrics.scrape().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        log.error({ err: error }, 'metrics could not be collected');
        sendError(response, 500, 'INTERNAL', 'The metrics could not be collected.');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}
