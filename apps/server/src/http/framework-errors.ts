// Errors answered before a request reaches a route, in the API's one error shape
// `{ error: { code, message } }` like every other error:
// - Node's HTTP parser refuses a request it cannot read (headers over 16 KB, a URL longer than
//   that, a malformed request line, header or Content-Length, a request that takes too long):
//   clientErrorHandler writes the JSON answer on the socket itself, as nothing else can;
// - Fastify's router refuses a URL before routing it (bad percent-encoding, a path parameter over
//   maxParamLength): frameworkErrors;
// - a request arriving while the server shuts down: 503 from an onRequest hook (error-handler.ts;
//   Fastify's own return503OnClosing answer has another shape, so it is turned off).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyServerOptions } from 'fastify';
import { errorBody } from './error-handler.ts';

/** The largest request head Node accepts (request line and headers together). */
const MAX_HEADER_BYTES = 16 * 1024;

type TClientError = Error & { code?: string; reason?: string; rawPacket?: unknown };
type TFault = { status: number; code: string; message: string };

/** What a request Node's parser refused gets: status, code and a message naming the problem. */
export function clientFault(error: TClientError): TFault {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request took too long to arrive.' };
    case 'HPE_HEADER_OVERFLOW': {
      // The request line never ended within the limit: the URL itself is too long.
      const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : null;
      const lineEnd = packet?.indexOf('\r\n') ?? -1;
      return lineEnd < 0 || lineEnd >= MAX_HEADER_BYTES
        ? { status: 414, code: 'URI_TOO_LONG', message: 'The URL is too long (at most 16 KB).' }
        : {
            status: 431,
            code: 'HEADERS_TOO_LARGE',
            message: 'The request headers are too large (at most 16 KB together).',
          };
    }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The chunk extensions are too large.' };
    default: {
      const reason = error.reason ? `: ${error.reason.replace(/[^\x20-\x7e]/g, '')}` : '';
      return { status: 400, code: 'BAD_REQUEST', message: `The request is not valid HTTP${reason}.` };
    }
  }
}

/** Node's 'clientError': answer in the JSON error shape, then close the connection. */
export function clientErrorHandler(error: TClientError, socket: Socket): void {
  // A connection reset: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const fault = clientFault(error);
  if (socket.writable) {
    const body = JSON.stringify(errorBody(fault.code, fault.message));
    socket.write(
      `HTTP/1.1 ${fault.status} ${STATUS_CODES[fault.status] ?? 'Error'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

/** Fastify's errors before routing (bad URL encoding, over-long path parameter, ...). */
export function frameworkFault(error: FastifyError): TFault {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return {
        status: 400,
        code: 'BAD_REQUEST',
        message: 'The URL is not valid: it has a malformed percent-encoding.',
      };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, code: 'URI_TOO_LONG', message: 'A path parameter of the URL is too long.' };
    default:
      return {
        status: 500,
        code: 'INTERNAL',
        message: 'Something went wrong on our side. Please try again.',
      };
  }
}

/** The Fastify options that route these errors here (spread into the server's options). */
export const frameworkErrorOptions: Pick<
  FastifyServerOptions,
  'frameworkErrors' | 'clientErrorHandler' | 'return503OnClosing'
> = {
  frameworkErrors(error, _request, reply) {
    const fault = frameworkFault(error);
    if (fault.status >= 500) reply.log.error({ err: error }, 'framework error');
    // Written on the raw response: this request never reached a route (nor its typed reply).
    const body = JSON.stringify(errorBody(fault.code, fault.message));
    reply.raw.writeHead(fault.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-content-type-options': 'nosniff',
    });
    reply.raw.end(body);
  },
  clientErrorHandler,
  return503OnClosing: false,
};
