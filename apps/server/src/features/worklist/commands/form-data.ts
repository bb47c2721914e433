// Reading the multipart forms of the order endpoints (create, activate, duplicate) and of the
// reporting uploads: text fields are collected, files buffered within the caller's limits, and every
// fault answered with a message that names the field. The limits are applied while the form streams
// in (busboy cuts a part off at the file size; the total is counted chunk by chunk), so an oversize
// upload is refused as soon as it crosses a limit, never held in memory whole. A JSON body is
// accepted too, for forms without files.
import type { IncomingMessage } from 'node:http';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { sniffMediaType } from '../../../files/stored-files.ts';
import { AppError } from '../../../http/app-error.ts';

/** The limits of one form's files. */
export type TFormLimits = {
  /** What the files are, for messages: 'file', 'document', 'image'. */
  noun: string;
  maxFiles: number;
  /** Largest single file (bytes). */
  maxFileBytes: number;
  /** All files of the form together (bytes): what one request may hold in memory. */
  maxTotalBytes: number;
  /** The field that carries the files (default "files"; the bracketed "files[]" is accepted too). */
  field?: string;
};

const MEGABYTE = 1024 * 1024;

/** Documents of an order: PDF, JPEG or PNG (by content), at most 10 of 20 MB each. */
export const DOCUMENT_LIMITS = {
  field: 'files',
  maxFiles: 10,
  maxBytes: 20 * MEGABYTE,
  accept: ['application/pdf', 'image/jpeg', 'image/png'],
} as const;

/** The order forms' limits: DOCUMENT_LIMITS, and 100 MB together. */
export const ORDER_FORM_LIMITS: TFormLimits = {
  noun: 'file',
  maxFiles: DOCUMENT_LIMITS.maxFiles,
  maxFileBytes: DOCUMENT_LIMITS.maxBytes,
  maxTotalBytes: 100 * MEGABYTE,
};

/** busboy limits of a form: the files' and, for the text fields, 60 of 64 KB. */
export function multipartLimits(limits: TFormLimits) {
  return {
    fileSize: limits.maxFileBytes,
    files: limits.maxFiles,
    fields: 60,
    fieldSize: 64 * 1024,
    parts: limits.maxFiles + 60,
  };
}

/** busboy limits for the multipart plugin of the worklist scope (each form passes its own too). */
export const MULTIPART_LIMITS = multipartLimits(ORDER_FORM_LIMITS);

export type TUpload = { filename: string; data: Buffer };
export type TForm = { fields: Record<string, string | string[]>; files: TUpload[] };

const fileFieldOf = (limits: TFormLimits) => limits.field ?? DOCUMENT_LIMITS.field;

const megabytes = (bytes: number) => `${Math.floor(bytes / MEGABYTE)} MB`;

/** 413 naming the files' field: one file is over the size limit. */
export function fileTooLarge(limits: TFormLimits): AppError {
  const field = fileFieldOf(limits);
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `${field}: each ${limits.noun} must be at most ${megabytes(limits.maxFileBytes)}`,
    { field },
  );
}

function totalTooLarge(limits: TFormLimits): AppError {
  const field = fileFieldOf(limits);
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `${field}: the ${limits.noun}s of one upload must be at most ${megabytes(limits.maxTotalBytes)} together`,
    { field },
  );
}

function multipartFault(error: unknown, limits: TFormLimits): AppError | null {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(limits);
    case 'FST_FILES_LIMIT':
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        `${fileFieldOf(limits)}: at most ${limits.maxFiles} ${limits.noun}s may be uploaded at once`,
        { field: fileFieldOf(limits) },
      );
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', 'The form has too many fields');
    case 'FST_PROTO_VIOLATION':
      return new AppError('VALIDATION_FAILED', 'The form has a field name that is not allowed');
    default:
      return null;
  }
}

/**
 * One file of the form, read chunk by chunk: refused as soon as it passes the file size (busboy
 * stops the part there) or the form's total passes maxTotalBytes, keeping at most that in memory.
 */
async function readFile(part: MultipartFile, limits: TFormLimits, usedBytes: number): Promise<Buffer> {
  const { file } = part;
  // busboy truncates the part at fileSize and discards the rest; stop reading right there.
  file.once('limit', () => file.destroy(fileTooLarge(limits)));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    const data = chunk as Buffer;
    size += data.byteLength;
    if (size > limits.maxFileBytes) throw fileTooLarge(limits);
    if (usedBytes + size > limits.maxTotalBytes) throw totalTooLarge(limits);
    chunks.push(data);
  }
  if (file.truncated) throw fileTooLarge(limits);
  return Buffer.concat(chunks, size);
}

/**
 * The form of a request: multipart/form-data (fields + files, within `limits`) or a JSON object
 * (fields only).
 */
export async function readForm(request: FastifyRequest, limits: TFormLimits): Promise<TForm> {
  if (!request.isMultipart()) {
    const body = request.body;
    if (body === undefined || body === null) return { fields: {}, files: [] };
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send this form as multipart/form-data');
    }
    const fields: Record<string, string | string[]> = {};
    for (const [key, value] of Object.entries(body)) {
      if (value === null || value === undefined) continue;
      fields[key] = Array.isArray(value) ? value.map(String) : String(value);
    }
    return { fields, files: [] };
  }
  const fields: Record<string, string | string[]> = {};
  const files: TUpload[] = [];
  const fileField = fileFieldOf(limits);
  const fileFields = new Set([fileField, `${fileField}[]`]);
  let totalBytes = 0;
  try {
    for await (const part of request.parts({ limits: multipartLimits(limits) })) {
      if (part.type === 'file') {
        if (!fileFields.has(part.fieldname)) {
          throw new AppError(
            'VALIDATION_FAILED',
            `${part.fieldname}: files are accepted only as "${fileField}"`,
            {
              field: part.fieldname,
            },
          );
        }
        const data = await readFile(part, limits, totalBytes);
        totalBytes += data.byteLength;
        files.push({ filename: part.filename || 'document', data });
        continue;
      }
      if (part.valueTruncated) {
        throw new AppError('VALIDATION_FAILED', `${part.fieldname}: the value is too long`, {
          field: part.fieldname,
        });
      }
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      const previous = fields[part.fieldname];
      fields[part.fieldname] =
        previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
    }
  } catch (error) {
    discardRest(request.raw);
    throw multipartFault(error, limits) ?? error;
  }
  return { fields, files };
}

/**
 * A form refused before its end: stop parsing it and let the rest of the body go by unread, so
 * the answer goes out at once while the connection still finishes its request cleanly (rather
 * than stalling on a body nobody reads, or being closed under a client that is still sending).
 */
function discardRest(raw: IncomingMessage): void {
  if (raw.complete) return;
  raw.unpipe();
  raw.resume();
}

/** Parses the text fields with a zod schema; failures answer 400 naming each field (like route schemas). */
export function parseFields<TSchema extends z.ZodType>(
  schema: TSchema,
  fields: TForm['fields'],
): z.infer<TSchema> {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    field: issue.path.join('.') || 'body',
    in: 'body',
    message: issue.message,
  }));
  const message = issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ');
  throw new AppError('VALIDATION_FAILED', `Invalid request. ${message}`, { fields: issues });
}

/**
 * Checks every document before anything is written: non-empty, within the size limit and a PDF,
 * JPEG or PNG by content. storeFile checks again when it stores them.
 */
export async function checkDocuments(files: TUpload[]): Promise<void> {
  for (const file of files) {
    const name = `files (${file.filename})`;
    if (file.data.byteLength === 0) throw new AppError('VALIDATION_FAILED', `${name}: the file is empty`);
    if (file.data.byteLength > DOCUMENT_LIMITS.maxBytes) throw fileTooLarge(ORDER_FORM_LIMITS);
    const mediaType = await sniffMediaType(file.data);
    if (!mediaType || !(DOCUMENT_LIMITS.accept as readonly string[]).includes(mediaType)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${name}: only PDF, JPEG and PNG documents are accepted`, {
        field: 'files',
        detected: mediaType,
      });
    }
  }
}
