// Reading the multipart forms of the order endpoints (create, activate, duplicate): text fields are
// collected, documents buffered within the limits below, and every fault answered with a message
// that names the field. A JSON body is accepted too, for forms without files.
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { sniffMediaType } from '../../../files/stored-files.ts';
import { AppError } from '../../../http/app-error.ts';

/** Documents of an order: PDF, JPEG or PNG (by content), at most 10 of 20 MB each. */
export const DOCUMENT_LIMITS = {
  field: 'files',
  maxFiles: 10,
  maxBytes: 20 * 1024 * 1024,
  accept: ['application/pdf', 'image/jpeg', 'image/png'],
} as const;

/** busboy limits for the multipart plugin of the worklist scope. */
export const MULTIPART_LIMITS = {
  fileSize: DOCUMENT_LIMITS.maxBytes,
  files: DOCUMENT_LIMITS.maxFiles,
  fields: 60,
  fieldSize: 64 * 1024,
  parts: DOCUMENT_LIMITS.maxFiles + 60,
};

export type TUpload = { filename: string; data: Buffer };
export type TForm = { fields: Record<string, string | string[]>; files: TUpload[] };

const FILE_FIELDS = new Set([DOCUMENT_LIMITS.field, `${DOCUMENT_LIMITS.field}[]`]);

function multipartFault(error: unknown): AppError | null {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'files: each file must be at most 20 MB', { field: 'files' });
    case 'FST_FILES_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', 'files: at most 10 files may be uploaded at once', {
        field: 'files',
      });
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', 'The form has too many fields');
    case 'FST_PROTO_VIOLATION':
      return new AppError('VALIDATION_FAILED', 'The form has a field name that is not allowed');
    default:
      return null;
  }
}

/** The form of a request: multipart/form-data (fields + files) or a JSON object (fields only). */
export async function readForm(request: FastifyRequest): Promise<TForm> {
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
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!FILE_FIELDS.has(part.fieldname)) {
          await part.toBuffer().catch(() => undefined);
          throw new AppError('VALIDATION_FAILED', `${part.fieldname}: files are accepted only as "files"`, {
            field: part.fieldname,
          });
        }
        const data = await part.toBuffer();
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
    throw multipartFault(error) ?? error;
  }
  return { fields, files };
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
    if (file.data.byteLength > DOCUMENT_LIMITS.maxBytes)
      throw multipartFault({ code: 'FST_REQ_FILE_TOO_LARGE' });
    const mediaType = await sniffMediaType(file.data);
    if (!mediaType || !(DOCUMENT_LIMITS.accept as readonly string[]).includes(mediaType)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${name}: only PDF, JPEG and PNG documents are accepted`, {
        field: 'files',
        detected: mediaType,
      });
    }
  }
}
