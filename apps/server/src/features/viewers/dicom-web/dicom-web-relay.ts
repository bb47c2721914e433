// Relays one checked DICOMweb read to the study's archive and its answer back, streaming: instances,
// frames and bulk data are piped as they arrive (never held whole in memory), with the headers a
// viewer needs for ranges and caching; the archive call is aborted when the browser goes away. DICOM
// JSON (QIDO, metadata) is read whole, bounded, to rewrite the archive's URLs in it.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../http/app-error.ts';
import {
  archiveFetch,
  ArchiveError,
  type TArchiveConnection,
} from '../../../integrations/pacs/archive-client.ts';
import { proxied, rewriteArchiveUrls } from './dicom-web-json.ts';
import { boundaryOf, multipartHeaderRewriter, rewriteContentLocation } from './multipart-rewrite.ts';
import type { TDicomWebRead } from './dicom-web-paths.ts';

/** Request headers the archive gets from the browser (nothing else: no cookie, no authorization). */
const FORWARDED = ['accept', 'range', 'if-range', 'if-none-match', 'if-modified-since'] as const;
/** Response headers the browser gets from the archive. */
const RELAYED = ['content-type', 'etag', 'last-modified', 'accept-ranges', 'content-range'] as const;
/** Statuses passed through as they are; any other answer of the archive is mapped below. */
const PASSED = new Set([200, 204, 206, 304, 406, 416]);
/** A QIDO or metadata answer larger than this is refused (a study's metadata is a few MB). */
export const MAX_JSON_BYTES = 128 * 1024 * 1024;
/** Time for a QIDO or metadata answer, body included. */
const JSON_TIMEOUT_MS = 60_000;

function archiveFailure(error: ArchiveError): AppError {
  if (error.kind === 'timeout')
    return new AppError('ARCHIVE_TIMEOUT', 'The image archive did not answer in time', undefined, 504);
  return new AppError('ARCHIVE_UNAVAILABLE', 'The image archive cannot be reached', undefined, 502);
}

function statusFailure(status: number): AppError {
  if (status === 404) return new AppError('NOT_FOUND', 'Not found in the image archive');
  if (status === 400) return new AppError('BAD_REQUEST', 'The image archive refused this request');
  return new AppError(
    'ARCHIVE_UNAVAILABLE',
    `The image archive answered ${status}`,
    { archive_status: status },
    502,
  );
}

/** Cookie- or pass-authorised answers may be kept by the browser, never by a shared cache. */
function privateCacheControl(value: string | null): string {
  if (!value) return 'private, no-cache';
  const directives = value
    .split(',')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !/^(public|private|s-maxage=.*)$/i.test(directive));
  return ['private', ...directives].join(', ');
}

async function readBounded(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new AppError(
        'ARCHIVE_UNAVAILABLE',
        'The image archive answered too much metadata',
        undefined,
        502,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export type TRelayTarget = {
  connection: TArchiveConnection;
  read: TDicomWebRead;
  /** The proxy's DICOMweb root as the browser reaches it (archive URLs are rewritten to it). */
  proxyRoot: string;
};

/** Sends the archive's answer to `reply`; resolves once the answer is handed to Fastify. */
export async function relayRead(
  request: FastifyRequest,
  reply: FastifyReply,
  { connection, read, proxyRoot }: TRelayTarget,
): Promise<FastifyReply> {
  const abort = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let response: Response;
  try {
    response = await archiveFetch(connection, {
      root: 'dicomweb',
      path: read.archivePath,
      query: read.query,
      method: 'GET',
      headers,
      signal: abort.signal,
      // Instances and frames stream for as long as they take (the browser leaving ends them); DICOM
      // JSON, read whole here, must be complete within the time-out.
      ...(read.kind === 'binary' ? { streamBody: true } : { timeoutMs: JSON_TIMEOUT_MS }),
    });
  } catch (error) {
    if (abort.signal.aborted) return reply.hijack();
    if (error instanceof ArchiveError) throw archiveFailure(error);
    throw error;
  }
  if (!PASSED.has(response.status)) {
    await response.body?.cancel().catch(() => undefined);
    throw statusFailure(response.status);
  }
  const relayed = () => {
    reply.status(response.status);
    for (const name of RELAYED) {
      const value = response.headers.get(name);
      if (value !== null) reply.header(name, value);
    }
    return reply.header('cache-control', privateCacheControl(response.headers.get('cache-control')));
  };
  const contentType = response.headers.get('content-type') ?? '';
  // HEAD (Fastify answers it with the GET route): the archive's headers, its body never read.
  if (!response.body || response.status === 204 || response.status === 304 || request.method === 'HEAD') {
    await response.body?.cancel().catch(() => undefined);
    return relayed().send();
  }
  if (read.kind === 'json' && response.status === 200 && /json/i.test(contentType)) {
    const text = (await readBounded(response.body, MAX_JSON_BYTES)).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AppError('ARCHIVE_UNAVAILABLE', 'The image archive answered malformed JSON', undefined, 502);
    }
    return relayed()
      .type(contentType)
      .send(JSON.stringify(rewriteArchiveUrls(json, connection.dicomwebUrl, proxyRoot)));
  }
  if (read.kind === 'json') {
    // Not JSON where JSON was asked for (e.g. multipart XML): it could carry archive URLs.
    await response.body.cancel().catch(() => undefined);
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Only DICOM JSON is served for searches and metadata');
  }
  const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
  const boundary = boundaryOf(contentType);
  if (boundary === null) {
    const length = response.headers.get('content-length');
    if (length !== null) reply.header('content-length', length);
    return relayed().send(body);
  }
  // Part headers may name the archive (Content-Location): rewritten as they pass, so the length changes.
  const rewriter = multipartHeaderRewriter(boundary, (headers) =>
    rewriteContentLocation(headers, (url) => proxied(url, connection.dicomwebUrl, proxyRoot)),
  );
  body.on('error', (error) => rewriter.destroy(error));
  return relayed().send(body.pipe(rewriter));
}
