// The realtime server (engine.io under socket.io, at /ws/) answers its own HTTP errors, before any
// Fastify code runs, as `{ code: <number>, message }`. This engine middleware rewrites them into
// the API's one error shape `{ error: { code, message } }` (400 BAD_REQUEST, 403 FORBIDDEN) so every
// error the server sends reads the same. (Refused WebSocket upgrades are written on the socket by
// engine.io as text; a browser never shows those to anyone.)
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { errorBody } from './error-handler.ts';

type TNext = (error?: unknown) => void;

/** engine.io's JSON error, or null for anything else. */
function engineError(body: unknown): { message: string } | null {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return null;
  try {
    const parsed: unknown = JSON.parse(body.toString());
    if (typeof parsed !== 'object' || parsed === null || !('message' in parsed) || !('code' in parsed))
      return null;
    return typeof parsed.message === 'string' && typeof parsed.code === 'number'
      ? { message: parsed.message }
      : null;
  } catch {
    return null;
  }
}

export function engineErrorShape(_request: IncomingMessage, response: ServerResponse, next: TNext): void {
  const writeHead = response.writeHead.bind(response);
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  // An error's head is held until end(): its body, and so its length, may change.
  response.writeHead = ((code: number, headers?: OutgoingHttpHeaders) => {
    if (code < 400) return headers === undefined ? writeHead(code) : writeHead(code, headers);
    response.statusCode = code;
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (value !== undefined) response.setHeader(name, value);
    }
    return response;
  }) as ServerResponse['writeHead'];
  response.end = ((body?: unknown, ...rest: unknown[]) => {
    // From here the head goes out as usual (Node writes it through writeHead when the body does).
    response.writeHead = writeHead;
    const error = response.statusCode >= 400 && !response.headersSent ? engineError(body) : null;
    if (!error) return end(body, ...rest);
    const code = response.statusCode === 403 ? 'FORBIDDEN' : 'BAD_REQUEST';
    const text = JSON.stringify(errorBody(code, `Realtime connection refused: ${error.message}`));
    response.setHeader('content-type', 'application/json; charset=utf-8');
    response.setHeader('content-length', Buffer.byteLength(text));
    return end(text, ...rest.filter((arg) => typeof arg === 'function'));
  }) as ServerResponse['end'];
  next();
}
