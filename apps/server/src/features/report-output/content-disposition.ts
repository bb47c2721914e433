// Report files as downloads: Content-Disposition (RFC 6266) with an ASCII `filename` every client
// understands and `filename*` (RFC 8187, UTF-8) with the real name, never cached.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** RFC 8187 attr-char percent-encoding (encodeURIComponent leaves !'()* bare, which attr-char lacks). */
function encodeExtValue(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * The ASCII fallback: accents dropped (é → e), other non-ASCII characters removed, quotes,
 * backslashes and path/control characters replaced; "patient_report.pdf" when nothing is left of
 * the name (a name in Devanagari only).
 */
export function asciiFileName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot).replace(/[^A-Za-z0-9.]/g, '') : '';
  const stem = (dot > 0 ? fileName.slice(0, dot) : fileName)
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\/:*?<>|%;]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/ (?=_report$)/, '')
    .trim()
    .replace(/^[_.]+(?=.)/, '')
    .slice(0, 180);
  return `${stem === '' || stem === '_report' || stem === 'report' ? 'patient_report' : stem}${extension}`;
}

/** `attachment; filename="…"; filename*=UTF-8''…` for a file name (already safe for file systems). */
export function attachmentDisposition(fileName: string): string {
  const clean = fileName.replace(/[\r\n\t]/g, ' ');
  return `attachment; filename="${asciiFileName(clean)}"; filename*=UTF-8''${encodeExtValue(clean)}`;
}

/** Sends a report file as an attachment: its media type, safe file name, no caching, nosniff. */
export function sendAttachment(
  reply: FastifyReply,
  file: { mediaType: string; fileName: string; sizeBytes: number; body: Buffer | Readable },
): FastifyReply {
  return reply
    .header('content-type', file.mediaType)
    .header('content-length', String(file.sizeBytes))
    .header('content-disposition', attachmentDisposition(file.fileName))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.body);
}
