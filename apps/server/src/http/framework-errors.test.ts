// Errors answered before a request reaches a route have the API's one error shape too. Node's HTTP
// parser answers some of them before Fastify sees the request, so these tests speak raw HTTP over
// node:net: fetch would refuse to send most of these requests at all.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TTestServer } from '../test/test-server.ts';

let server: TTestServer;
let port: number;

beforeAll(async () => {
  server = await startTestServer({
    env: { BODY_LIMIT_BYTES: '2048' },
    routes: async (api) => {
      api.post(
        '/probe/json',
        { schema: { body: z.object({ a: z.number() }) } },
        async (request) => request.body,
      );
    },
  });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server.close();
});

type TRawResponse = { status: number; headers: Record<string, string>; body: string; json: unknown };

/** The responses in what the server wrote on one connection (each with a Content-Length). */
function parseResponses(data: Buffer): TRawResponse[] {
  const responses: TRawResponse[] = [];
  let rest = data;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) throw new Error(`incomplete response: ${rest.toString()}`);
    const [statusLine = '', ...headerLines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body, json });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return responses;
}

/**
 * Writes `request` as is on a new connection and reads every response until the server closes it
 * (the requests say Connection: close, or are ones the server closes after refusing).
 */
function rawAll(request: string, to = port): Promise<TRawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(to, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset a connection it refused after answering; the answer is what counts.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      try {
        resolve(parseResponses(Buffer.concat(chunks)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.write(request);
  });
}

/** The one response to `request`. */
async function raw(request: string): Promise<TRawResponse> {
  const responses = await rawAll(request);
  expect(responses, request.slice(0, 200)).toHaveLength(1);
  const [response] = responses;
  if (!response) throw new Error('no response');
  return response;
}

const shaped = (code: string) => ({ error: { code, message: expect.any(String) } });

describe("requests Node's HTTP parser refuses", () => {
  it('headers over 16 KB answer 431 in the error shape', async () => {
    const response = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json).toEqual(shaped('HEADERS_TOO_LARGE'));
  });

  it('a URL over 16 KB answers 414 in the error shape', async () => {
    const response = await raw(`GET /api/v1/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(response.status).toBe(414);
    expect(response.json).toEqual(shaped('URI_TOO_LONG'));
  });

  it('a malformed request line, header or Content-Length answers 400 in the error shape', async () => {
    const requests = [
      'NOT A REQUEST\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
      'POST /api/v1/probe/json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
      'POST /api/v1/probe/json HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
    ];
    for (const request of requests) {
      const response = await raw(request);
      expect(response.status, request).toBe(400);
      expect(response.json, request).toEqual(shaped('BAD_REQUEST'));
    }
  });

  it('a JSON body longer than its Content-Length: the declared part is refused as JSON, the rest as HTTP, both in the shape', async () => {
    const responses = await rawAll(
      'POST /api/v1/probe/json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n{"a": 1}',
    );
    expect(responses.length).toBeGreaterThanOrEqual(1);
    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        error: { code: expect.stringMatching(/^(INVALID_JSON|BAD_REQUEST)$/), message: expect.any(String) },
      });
    }
  });
});

describe('errors before routing', () => {
  it('a bad percent-encoding in the path answers 400 in the error shape', async () => {
    for (const path of ['/api/v1/user/%E0%A4%A', '/api/v1/user/%zz', '/api/v1/worklist/%']) {
      const response = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(response.status, path).toBe(400);
      expect(response.json, path).toEqual(shaped('BAD_REQUEST'));
    }
  });

  it('a path parameter over the router limit answers 414 in the error shape', async () => {
    const response = await raw(
      `GET /api/v1/user/${'a'.repeat(200)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(response.status).toBe(414);
    expect(response.json).toEqual(shaped('URI_TOO_LONG'));
  });

  it('the realtime endpoint refuses a request it cannot serve in the error shape', async () => {
    for (const path of ['/ws/', '/ws/?EIO=4&transport=polling', '/ws/?EIO=9&transport=websocket']) {
      const response = await server.request('GET', path);
      expect(response.status, path).toBe(400);
      expect(response.json, path).toEqual(shaped('BAD_REQUEST'));
    }
  });

  it('a path climbing out of the static files answers in the error shape, with its status’s code', async () => {
    for (const path of ['/viewer/../../../../etc/passwd', '/viewer/%2e%2e/%2e%2e/etc/passwd']) {
      const response = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(response.body.toString(), path).not.toContain('root:');
      const code = { 400: 'BAD_REQUEST', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[response.status];
      expect(code, `${path}: ${response.status}`).toBeDefined();
      expect(response.json, path).toEqual(shaped(code ?? ''));
    }
  });

  it('a missing asset answers 404 in the error shape', async () => {
    const response = await server.request('GET', '/assets/missing-123.js');
    expect(response.status).toBe(404);
    expect(response.json).toEqual(shaped('NOT_FOUND'));
  });

  it('a content type nobody parses answers 415, an oversize body 413, both in the error shape', async () => {
    const xml = await server.request('POST', '/api/v1/probe/json', {
      rawBody: '<a/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.status).toBe(415);
    expect(xml.json).toEqual(shaped('UNSUPPORTED_MEDIA_TYPE'));
    const big = await server.request('POST', '/api/v1/probe/json', { body: { a: 1, pad: 'x'.repeat(4096) } });
    expect(big.status).toBe(413);
    expect(big.json).toEqual(shaped('PAYLOAD_TOO_LARGE'));
  });
});

describe('while the server shuts down', () => {
  it('a request that arrives answers 503 in the error shape', async () => {
    // One connection: the first request is held in its handler; the server begins to close; once
    // its preClose hooks have run, a second request is sent on the same connection. The first is
    // released when the second has been answered (onSend), so nothing waits on time.
    let reached = (): void => undefined;
    const inHandler = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sendLate = (): void => undefined;
    const closing = await startTestServer({
      routes: async (api) => {
        api.get('/probe/hold', async () => {
          reached();
          await released;
          return { ok: true };
        });
        api.get('/probe/late', async () => ({ ok: true }));
        api.addHook('onSend', async (request) => {
          if (request.url === '/api/v1/probe/late') release();
        });
        // Runs after the application's own preClose hooks (parents first).
        api.addHook('preClose', async () => sendLate());
      },
    });
    const socket = net.connect(Number(new URL(closing.url).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    sendLate = () => {
      socket.write('GET /api/v1/probe/late HTTP/1.1\r\nHost: x\r\n\r\n');
    };
    socket.write('GET /api/v1/probe/hold HTTP/1.1\r\nHost: x\r\n\r\n');
    await inHandler;
    await closing.close();
    await ended;
    const [held, late] = parseResponses(Buffer.concat(chunks));
    expect(held?.status).toBe(200);
    expect(late?.status).toBe(503);
    expect(late?.json).toEqual({
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The server is restarting. Please try again in a moment.',
      },
    });
  });
});
