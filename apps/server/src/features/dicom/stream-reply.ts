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
 * Sends a body on as it comes, with these headers, and Content-Length when the archive gave one (a
 * browser then shows real progress).
 */
export function sendStream(
  reply: FastifyReply,
  body: Readable,
  headers: Record<string, string>,
  contentLength: string | null,
): FastifyReply {
  if (contentLength && /^\d+$/.test(contentLength)) reply.header('content-length', contentLength);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.header('x-content-type-options', 'nosniff').send(body);
}

/**
 * sendStream of an archive's answer, without its Content-Length: Orthanc's DICOMweb plugin (1.7)
 * announces a length shorter than the rendered image it sends, which would cut the image short.
 */
export function sendArchiveBody(
  reply: FastifyReply,
  response: Response,
  headers: Record<string, string>,
): FastifyReply {
  if (!response.body) throw new Error('an archive answer without a body');
  return sendStream(reply, nodeStreamOf(response.body), headers, null);
}
