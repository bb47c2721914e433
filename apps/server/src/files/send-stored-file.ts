// Serving a stored upload (patient document, key image, letterhead) back to the browser.
import type { FastifyReply } from 'fastify';
import type { BlobStore } from './blob-store.ts';
import type { TStoredFile } from './stored-files.ts';

/** A filename safe for a quoted header value (ASCII, no quotes, slashes or control characters). */
function asciiFilename(filename: string): string {
  const cleaned = filename
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\/;:*?<>|%]/g, '_')
    .trim();
  return cleaned.slice(0, 150) || 'file';
}

/**
 * Sends a stored file inline: its stored (sniffed) media type, Content-Disposition inline with a
 * safe filename (plus RFC 5987 filename* for the original), nosniff, private caching only. Only
 * PDFs and raster images are ever stored here (checked by content), so nothing served can script.
 */
export async function sendStoredFile(
  reply: FastifyReply,
  blobs: BlobStore,
  file: TStoredFile,
  filename: string,
): Promise<FastifyReply> {
  const stream = await blobs.open(file.storageKey);
  // Cut before encoding (never inside a %XX escape), then made well-formed (a lone surrogate, also
  // one left by the cut, would make encodeURIComponent throw).
  const encoded = encodeURIComponent(
    filename
      .replace(/[\r\n]/g, ' ')
      .slice(0, 200)
      .replace(/\p{Cs}/gu, '\uFFFD'),
  );
  return reply
    .header('content-type', file.mediaType)
    .header('content-length', String(file.sizeBytes))
    .header(
      'content-disposition',
      `inline; filename="${asciiFilename(filename)}"; filename*=UTF-8''${encoded}`,
    )
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=300')
    .send(stream);
}
