// Uploads of the reporting workspace (patient documents, key images) on top of the worklist's form
// reader (form-data.ts) and file store (stored-files.ts): limits of their own, checked by content
// before anything is written, and served back inline with safe headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../files/blob-store.ts';
import { assertImagePixels } from '../../files/image-pixels.ts';
import { sniffMediaType, type TStoredFile } from '../../files/stored-files.ts';
import { AppError } from '../../http/app-error.ts';
import { readForm, type TForm } from '../worklist/commands/form-data.ts';

export type TUploadLimits = {
  /** What the files are, for messages: 'document', 'image'. */
  noun: string;
  accept: readonly string[];
  /** Names of the accepted kinds, for messages: 'PDF, JPEG, PNG or WebP'. */
  acceptLabel: string;
  maxBytes: number;
  /** Files of one upload at most. */
  maxFiles: number;
  /** All files of one upload together (bytes): what one request may hold in memory. */
  maxTotalBytes: number;
  /** The form field of the files, named in messages (default "files"). */
  field?: string;
  /** Images only: refuse any over MAX_IMAGE_PIXELS (files/image-pixels.ts), read from the header. */
  limitPixels?: boolean;
};

const megabytes = (bytes: number) => `${Math.floor(bytes / 1024 / 1024)} MB`;

/**
 * The multipart form (fields + `files`), read within these limits while it streams: a file over
 * maxBytes, more than maxFiles files or more than maxTotalBytes together answer 413 naming `files`
 * as soon as the limit is crossed.
 */
export async function readUploadForm(request: FastifyRequest, limits: TUploadLimits): Promise<TForm> {
  return readForm(request, {
    noun: limits.noun,
    maxFiles: limits.maxFiles,
    maxFileBytes: limits.maxBytes,
    maxTotalBytes: limits.maxTotalBytes,
    ...(limits.field === undefined ? {} : { field: limits.field }),
  });
}

function tooLarge(limits: TUploadLimits): AppError {
  const field = limits.field ?? 'files';
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `${field}: each ${limits.noun} must be at most ${megabytes(limits.maxBytes)}`,
    {
      field,
    },
  );
}

/**
 * Checks every file before anything is written: at least one (unless `optional`), none empty,
 * within the size limit, of an accepted kind by its content (never its name or declared type) and,
 * with `limitPixels`, within the pixel limit.
 */
export async function checkUploads(
  files: TForm['files'],
  limits: TUploadLimits,
  options: { optional?: boolean } = {},
): Promise<void> {
  const field = limits.field ?? 'files';
  if (files.length === 0 && !options.optional) {
    throw new AppError('VALIDATION_FAILED', `${field}: choose at least one ${limits.noun}`, { field });
  }
  for (const file of files) {
    const name = `${field} (${file.filename})`;
    if (file.data.byteLength === 0) {
      throw new AppError('VALIDATION_FAILED', `${name}: the file is empty`, { field });
    }
    if (file.data.byteLength > limits.maxBytes) throw tooLarge(limits);
    const mediaType = await sniffMediaType(file.data);
    if (!mediaType || !limits.accept.includes(mediaType)) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `${name}: this is not a ${limits.acceptLabel} ${limits.noun}`,
        { field, detected: mediaType },
      );
    }
    if (limits.limitPixels) assertImagePixels(field, file.filename, file.data);
  }
}

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
  const encoded = encodeURIComponent(filename.replace(/[\r\n]/g, ' ')).slice(0, 600);
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
