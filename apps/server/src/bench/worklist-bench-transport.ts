// How the worklist bench's filter matrix sends its requests (BENCH_MATRIX_TRANSPORT): `http` (the
// default) to the bench server in a process of its own (worklist-bench-server.ts), over one
// keep-alive connection, as a browser would: the times are the server's and the network's, and the
// bench's own allocations and collections stay out of them; `inject` in-process (app.inject), as
// before, without a socket. Each mode of the matrix opens its transport with the count cache off or
// on (a server process is started per mode) and closes it after.
import { Agent, request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { WorklistCountCache } from '../features/worklist/list/worklist-count-cache.ts';
import { startBenchServer } from './worklist-bench-http.ts';

export type TMatrixResponse = {
  status: number;
  body: string;
  /** The server's own time for the request (its Server-Timing header), when it sent one. */
  serverMs?: number;
};

/** The `app` duration of a Server-Timing header (worklist-bench-server.ts), in ms. */
export function serverMsOf(header: string | string[] | undefined): number | undefined {
  const match = /(?:^|,)\s*app;dur=([0-9.]+)/.exec(Array.isArray(header) ? header.join(',') : (header ?? ''));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

export type TMatrixTransport = {
  /** A GET of `path` (from /api/v1/…) as the holder of `token`. */
  get(path: string, token: string): Promise<TMatrixResponse>;
  /** One write through the API (a priority change of one study), which evicts the count cache. */
  writeOnce(): Promise<void>;
  close(): Promise<void>;
};

export type TOpenTransport = (cacheOn: boolean) => Promise<TMatrixTransport>;

export const matrixTransportKind = (): 'http' | 'inject' =>
  process.env.BENCH_MATRIX_TRANSPORT === 'inject' ? 'inject' : 'http';

/** The body of the matrix's write: `study` tagged URGENT, then ROUTINE, alternately. */
function priorityChange(study: string): () => string {
  let tag = 0;
  return () => JSON.stringify({ worklist_ids: [study], priority_tag: ++tag % 2 ? 'URGENT' : 'ROUTINE' });
}
const PRIORITY_PATH = '/api/v1/worklist/assign/priority-tag';

/** In-process: app.inject, the count cache switched on the app itself. */
export function injectTransport(
  app: FastifyInstance,
  countCache: WorklistCountCache,
  write: { adminToken: string; study: string },
): TOpenTransport {
  const nextBody = priorityChange(write.study);
  return async (cacheOn) => {
    countCache.enabled = cacheOn;
    return {
      async get(path, token) {
        const response = await app.inject({
          method: 'GET',
          url: path,
          headers: { authorization: `Bearer ${token}` },
        });
        return { status: response.statusCode, body: response.body };
      },
      async writeOnce() {
        const response = await app.inject({
          method: 'PUT',
          url: PRIORITY_PATH,
          headers: { authorization: `Bearer ${write.adminToken}`, 'content-type': 'application/json' },
          payload: nextBody(),
        });
        if (response.statusCode !== 200)
          throw new Error(`priority change: ${response.statusCode} ${response.body}`);
      },
      async close() {
        countCache.enabled = true;
      },
    };
  };
}

/** Over HTTP to a bench server process started with the count cache off or on. */
export function httpTransport(
  server: { databaseUrl: string; tokenSecret: string },
  write: { adminToken: string; study: string },
): TOpenTransport {
  const nextBody = priorityChange(write.study);
  return async (cacheOn) => {
    const child = await startBenchServer({
      BENCH_SERVER_DATABASE_URL: server.databaseUrl,
      BENCH_SERVER_TOKEN_SECRET: server.tokenSecret,
      BENCH_SERVER_COUNT_CACHE: cacheOn ? 'on' : 'off',
      BENCH_SERVER_TIMING: '1',
    });
    const origin = new URL(child.address);
    // The reads go one after another on one connection; the writes (a few a second) on their own.
    const reads = new Agent({ keepAlive: true, maxSockets: 1 });
    const writes = new Agent({ keepAlive: true, maxSockets: 2 });
    const send = (agent: Agent, method: string, path: string, token: string, body?: string) =>
      new Promise<TMatrixResponse>((resolve, reject) => {
        const headers: Record<string, string> = { authorization: `Bearer ${token}` };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const outgoing = request(
          { agent, host: origin.hostname, port: origin.port, method, path, headers },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              const serverMs = serverMsOf(response.headers['server-timing']);
              resolve({
                status: response.statusCode ?? 0,
                body: Buffer.concat(chunks).toString('utf8'),
                ...(serverMs === undefined ? {} : { serverMs }),
              });
            });
            response.on('error', reject);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    return {
      get: (path, token) => send(reads, 'GET', path, token),
      async writeOnce() {
        const response = await send(writes, 'PUT', PRIORITY_PATH, write.adminToken, nextBody());
        if (response.status !== 200) throw new Error(`priority change: ${response.status} ${response.body}`);
      },
      async close() {
        reads.destroy();
        writes.destroy();
        await child.stop();
      },
    };
  };
}
