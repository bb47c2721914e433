// The one multipart module of the API. Every route that takes a form with files (orders, patient
// documents, key images, support, letterheads) registers the plugin for its own scope with
// registerMultipart, reads its form with readForm within its own limits, parses the text fields
// with parseFields, and checks the files by content with checkUploads (upload-checks.ts).
//
// Limits are applied while the form streams in (busboy cuts a part off at the file size; the total
// is counted chunk by chunk), so an oversize upload is refused as soon as it crosses a limit, never
// held in memory whole. Every fault of a form answers 4xx with a message that names the field or
// the problem: a form without a boundary, cut off before its end or with a bad part is 400, never
// a 500. A JSON body is accepted too, for forms without files.
import type { IncomingMessage, ServerResponse } from 'node:http';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifyTypeProvider,
  RawServerDefault,
} from 'fastify';
import type { z } from 'zod';
import { AppError } from './app-error.ts';
import { assertNoNulText } from './nul-text.ts';

/** What one form accepts: the kind of its files and how many, how large, and its text fields. */
export type TFormLimits = {
  /** What the files are, for messages: 'file', 'document', 'image'. */
  noun: string;
  /** Media types accepted, decided by content (magic bytes), never by name or declared type. */
  accept: readonly string[];
  /** Names of the accepted kinds, for messages: 'PDF, JPEG, PNG or WebP'. */
  acceptLabel: string;
  /** Largest single file (bytes). */
  maxBytes: number;
  maxFiles: number;
  /** All files of the form together (bytes): what one request may hold in memory. */
  maxTotalBytes: number;
  /** The fields that carry files (default ["files"]; each is accepted bracketed too, "files[]"). */
  fileFields?: readonly string[];
  /** Text fields at most (default 60), each at most maxFieldBytes (default 64 KB). */
  maxFields?: number;
  maxFieldBytes?: number;
};

export type TUpload = { field: string; filename: string; data: Buffer };
export type TForm = { fields: Record<string, string | string[]>; files: TUpload[] };

const MEGABYTE = 1024 * 1024;
const DEFAULT_FILE_FIELD = 'files';

export const megabytes = (bytes: number) => `${Math.floor(bytes / MEGABYTE)} MB`;

/** The fields that carry files; the first is the one messages name when no part names one. */
export function fileFieldsOf(limits: TFormLimits): readonly [string, ...string[]] {
  const [first, ...rest] = limits.fileFields ?? [];
  return first === undefined ? [DEFAULT_FILE_FIELD] : [first, ...rest];
}

/** busboy's limits for one form. */
function busboyLimits(limits: TFormLimits) {
  const fields = limits.maxFields ?? 60;
  return {
    fileSize: limits.maxBytes,
    files: limits.maxFiles,
    fields,
    fieldSize: limits.maxFieldBytes ?? 64 * 1024,
    parts: limits.maxFiles + fields,
  };
}

/**
 * Registers @fastify/multipart for the caller's scope (a feature's route plugin), bounded by the
 * largest of its forms' limits; each route still reads its form with its own (readForm).
 */
export async function registerMultipart<TProvider extends FastifyTypeProvider>(
  app: FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TProvider>,
  ...forms: TFormLimits[]
): Promise<void> {
  const all = forms.map(busboyLimits);
  const most = (key: keyof ReturnType<typeof busboyLimits>) => Math.max(...all.map((l) => l[key]));
  await app.register(multipart, {
    limits: {
      fileSize: most('fileSize'),
      files: most('files'),
      fields: most('fields'),
      fieldSize: most('fieldSize'),
      parts: most('parts'),
    },
  });
}

/** 413 naming the field: one file is over the size limit. */
export function fileTooLarge(limits: TFormLimits, field = fileFieldsOf(limits)[0]): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `${field}: each ${limits.noun} must be at most ${megabytes(limits.maxBytes)}`,
    { field },
  );
}

function totalTooLarge(limits: TFormLimits): AppError {
  const field = fileFieldsOf(limits)[0];
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `${field}: the ${limits.noun}s of one upload must be at most ${megabytes(limits.maxTotalBytes)} together`,
    { field },
  );
}

/** 400: the body is not a well-formed multipart form. */
export function malformedForm(problem: string): AppError {
  return new AppError('VALIDATION_FAILED', `The form is malformed: ${problem}`, { field: 'body' });
}

const errorCode = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error ? error.code : null;

/**
 * Every fault while a form is read, as a 4xx. The plugin's own errors are mapped by code; any other
 * error thrown by the parser comes from the bytes the client sent (busboy rejects a body it cannot
 * parse), so it is a malformed form too, never a 500.
 */
function multipartFault(error: unknown, limits: TFormLimits, raw: IncomingMessage): AppError {
  if (error instanceof AppError) return error;
  const field = fileFieldsOf(limits)[0];
  switch (errorCode(error)) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(limits);
    case 'FST_FILES_LIMIT':
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        `${fileFieldsOf(limits).join(', ')}: at most ${limits.maxFiles} ${limits.noun}s may be uploaded at once`,
        { field },
      );
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', 'The form has too many fields');
    case 'FST_PROTO_VIOLATION':
      return new AppError('VALIDATION_FAILED', 'The form has a field name that is not allowed');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return malformedForm('a field declared as JSON is not valid JSON');
    case 'FST_MP_PREMATURE_CLOSE':
      return malformedForm('the upload stopped before the form was complete');
    default:
      return malformedForm(
        raw.complete
          ? 'the body ends before the form does (no closing boundary, or a part cut off)'
          : 'the upload stopped before the form was complete',
      );
  }
}

/** The boundary parameter of a multipart Content-Type, without which no part can be found. */
function assertBoundary(request: FastifyRequest): void {
  const contentType = request.headers['content-type'] ?? '';
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  const value = boundary?.[1] ?? boundary?.[2] ?? '';
  if (!value) throw malformedForm('no multipart boundary in the Content-Type header');
  if (value.length > 70) throw malformedForm('the multipart boundary is longer than 70 characters');
}

/**
 * One file of the form, read chunk by chunk: refused as soon as it passes the file size (busboy
 * stops the part there) or the form's total passes maxTotalBytes, keeping at most that in memory.
 */
async function readFile(
  part: MultipartFile,
  field: string,
  limits: TFormLimits,
  usedBytes: number,
): Promise<Buffer> {
  const { file } = part;
  // busboy truncates the part at fileSize and discards the rest; stop reading right there.
  file.once('limit', () => file.destroy(fileTooLarge(limits, field)));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    const data = chunk as Buffer;
    size += data.byteLength;
    if (size > limits.maxBytes) throw fileTooLarge(limits, field);
    if (usedBytes + size > limits.maxTotalBytes) throw totalTooLarge(limits);
    chunks.push(data);
  }
  if (file.truncated) throw fileTooLarge(limits, field);
  return Buffer.concat(chunks, size);
}

/** The text fields of a JSON body: scalars as text, lists of scalars as lists; objects refused. */
function jsonFields(body: unknown): TForm['fields'] {
  if (body === undefined || body === null) return {};
  // Text bodies (text/plain has a parser of its own) are not forms.
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send this form as multipart/form-data (or a JSON object)');
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('VALIDATION_FAILED', 'body: the form must be a JSON object (or multipart/form-data)', {
      field: 'body',
    });
  }
  const fields: TForm['fields'] = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item === 'object' && item !== null)) {
      throw new AppError('VALIDATION_FAILED', `${key}: must be text, a number or a list of them`, {
        field: key,
      });
    }
    fields[key] = Array.isArray(value) ? values.map(String) : String(value);
  }
  return fields;
}

/**
 * The form of a request: multipart/form-data (text fields + files of the `fileFields`, within
 * `limits`) or a JSON object (text fields only).
 */
export async function readForm(request: FastifyRequest, limits: TFormLimits): Promise<TForm> {
  if (!request.isMultipart()) return { fields: jsonFields(request.body), files: [] };
  const fields: TForm['fields'] = {};
  const files: TUpload[] = [];
  const fileFields = fileFieldsOf(limits);
  const fieldOf = (name: string) => fileFields.find((f) => name === f || name === `${f}[]`);
  let totalBytes = 0;
  try {
    assertBoundary(request);
    for await (const part of request.parts({ limits: busboyLimits(limits) })) {
      if (part.type === 'file') {
        const field = fieldOf(part.fieldname);
        if (!field) {
          throw new AppError(
            'VALIDATION_FAILED',
            `${part.fieldname}: files are accepted only as ${fileFields.map((f) => `"${f}"`).join(', ')}`,
            { field: part.fieldname },
          );
        }
        const data = await readFile(part, field, limits, totalBytes);
        totalBytes += data.byteLength;
        files.push({ field, filename: cleanFileName(part.filename ?? '') || limits.noun, data });
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
    throw multipartFault(error, limits, request.raw);
  }
  assertNoNulText(fields);
  return { fields, files };
}

/**
 * An uploaded file's name as shown and stored: without control characters (NUL cannot be stored) nor
 * the invisible marks that reorder text ("\u202Egpj.pdf" shows as "fdp.jpg").
 */
export function cleanFileName(name: string): string {
  return name.replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '').trim();
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
