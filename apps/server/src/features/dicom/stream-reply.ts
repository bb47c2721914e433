// Passing an archive's response body on to the browser as it arrives.
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyReply } from 'fastify';

/** A signal that aborts when the browser goes away before the answer is complete (ends the archive's work too). */
export function abortWhenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** A fetch body as a Node stream for reply.send (never read whole into memory). */
export function nodeStreamOf(body: ReadableStream<Uint8Array>): Readable {
  return Readable.fromWeb(body as WebReadableStream<Uint8Array>);
}

/**
 * Sends an archive's body on as it arrives, with these headers and the archive's Content-Length
 * when it gave one (a browser then shows real progress).
 */
export function sendArchiveBody(
  reply: FastifyReply,
  response: Response,
  headers: Record<string, string>,
): FastifyReply {
  if (!response.body) throw new Error('an archive answer without a body');
  const length = response.headers.get('content-length');
  if (length && /^\d+$/.test(length)) reply.header('content-length', length);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.header('x-content-type-options', 'nosniff').send(nodeStreamOf(response.body));
}
