// A small load balancer for tests: what a reverse proxy in front of several replicas does, and no
// more. Each HTTP request and each WebSocket upgrade goes to the next upstream in turn (no sticky
// sessions), with X-Forwarded-For added. An upstream that refuses a connection is skipped for a
// moment and the request goes to the next one (nothing reached the refusing upstream, so retrying
// is safe), so killing one replica fails over as a real proxy's passive health check does.
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import net from 'node:net';

/** How long an upstream that refused a connection is skipped. */
const DOWN_FOR_MS = 2_000;
/** Largest request body the proxy buffers (it buffers so that a refused request can go elsewhere). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type TRoundRobinProxy = {
  url: string;
  /** How many requests and upgrades each upstream was sent (by upstream URL). */
  sent: Map<string, number>;
  /** The upstream URL of every WebSocket upgrade, in order. */
  upgrades: string[];
  /** Sets the upstreams (http:// base URLs), e.g. once servers told the proxy's URL have started. */
  route(upstreamUrls: string[]): void;
  close(): Promise<void>;
};

type TUpstream = { url: URL; downUntil: number };

function refused(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ECONNREFUSED';
}

function forwardedHeaders(request: IncomingMessage, upstream: URL): IncomingHttpHeaders {
  const client = request.socket.remoteAddress ?? '';
  const previous = request.headers['x-forwarded-for'];
  return {
    ...request.headers,
    host: upstream.host,
    'x-forwarded-for': previous ? `${String(previous)}, ${client}` : client,
    'x-forwarded-host': request.headers.host ?? '',
    'x-forwarded-proto': 'http',
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large for the test proxy');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Starts the balancer on a free 127.0.0.1 port in front of the upstreams (http:// base URLs). */
export async function startRoundRobinProxy(initialUpstreams: string[] = []): Promise<TRoundRobinProxy> {
  let upstreamUrls: string[] = [];
  let upstreams: TUpstream[] = [];
  const sent = new Map<string, number>();
  let next = 0;
  const route = (urls: string[]): void => {
    upstreamUrls = [...urls];
    upstreams = urls.map((url) => ({ url: new URL(url), downUntil: 0 }));
    for (const url of urls) sent.set(url, 0);
    next = 0;
  };
  route(initialUpstreams);

  /** The upstreams in the order to try for one request: the next in turn first, live ones first. */
  function order(): TUpstream[] {
    if (upstreams.length === 0) return [];
    const start = next;
    next = (next + 1) % upstreams.length;
    const rotated = [...upstreams.slice(start), ...upstreams.slice(0, start)];
    const now = Date.now();
    return [...rotated.filter((u) => u.downUntil <= now), ...rotated.filter((u) => u.downUntil > now)];
  }

  const upgrades: string[] = [];
  function count(upstream: TUpstream): string {
    const key = upstreamUrls[upstreams.indexOf(upstream)] ?? upstream.url.toString();
    sent.set(key, (sent.get(key) ?? 0) + 1);
    return key;
  }

  function forward(request: IncomingMessage, body: Buffer, upstream: TUpstream): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const outgoing = http.request({
        host: upstream.url.hostname,
        port: upstream.url.port,
        method: request.method,
        path: request.url,
        headers: forwardedHeaders(request, upstream.url),
      });
      outgoing.once('response', resolve);
      outgoing.once('error', reject);
      outgoing.end(body);
    });
  }

  const server = http.createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      for (const upstream of order()) {
        try {
          const answer = await forward(request, body, upstream);
          count(upstream);
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          // An upstream that dies mid-answer cuts the client's connection too (no truncated 200).
          answer.once('error', () => response.destroy());
          answer.once('aborted', () => response.destroy());
          answer.pipe(response);
          return;
        } catch (error) {
          if (!refused(error)) throw error;
          upstream.downUntil = Date.now() + DOWN_FOR_MS;
        }
      }
      throw new Error('no upstream accepted the connection');
    })().catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    });
  });

  server.on('upgrade', (request: IncomingMessage, client: net.Socket, head: Buffer) => {
    client.on('error', () => client.destroy());
    const candidates = order();
    const attempt = (index: number): void => {
      const upstream = candidates[index];
      if (!upstream) {
        client.destroy();
        return;
      }
      const socket = net.connect({ host: upstream.url.hostname, port: Number(upstream.url.port) });
      let connected = false;
      socket.once('error', (error) => {
        if (refused(error) && !connected) {
          upstream.downUntil = Date.now() + DOWN_FOR_MS;
          attempt(index + 1);
        } else client.destroy();
      });
      socket.once('connect', () => {
        connected = true;
        upgrades.push(count(upstream));
        const headers = forwardedHeaders(request, upstream.url);
        const lines = Object.entries(headers).flatMap(([name, value]) =>
          value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`),
        );
        socket.write(
          `${request.method ?? 'GET'} ${request.url ?? '/'} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`,
        );
        if (head.length > 0) socket.write(head);
        socket.pipe(client).pipe(socket);
        // A replica that dies (or a client that leaves) closes the other side at once.
        socket.on('close', () => client.destroy());
        client.on('close', () => socket.destroy());
      });
    };
    attempt(0);
  });

  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    upgrades,
    route,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
