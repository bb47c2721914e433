// The letterhead upload form (POST /user/facility/{id}/letterhead): enable_letterhead and up to two
// images, header_file and footer_file. Limits are applied while the form streams (an image over
// MAX_LETTERHEAD_BYTES is cut off and refused at once, never held whole), and every image is
// checked by its content before anything is stored.
import type { IncomingMessage } from 'node:http';
import type { MultipartFile } from '@fastify/multipart';
import { LETTERHEAD_MEDIA_TYPES, MAX_LETTERHEAD_BYTES, ZLetterheadFields } from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import { assertImagePixels } from '../../files/image-pixels.ts';
import { sniffMediaType } from '../../files/stored-files.ts';
import { AppError } from '../../http/app-error.ts';
import { parseFields } from '../worklist/commands/form-data.ts';
import type { TLetterheadUpload } from './facility.commands.ts';

const FILE_FIELDS = ['header_file', 'footer_file'] as const;
type TFileField = (typeof FILE_FIELDS)[number];
const isFileField = (name: string): name is TFileField => (FILE_FIELDS as readonly string[]).includes(name);

/** busboy limits: two files, a handful of short text fields. */
export const LETTERHEAD_MULTIPART_LIMITS = {
  fileSize: MAX_LETTERHEAD_BYTES,
  files: FILE_FIELDS.length,
  fields: 10,
  fieldSize: 1024,
  parts: FILE_FIELDS.length + 10,
};

const tooLarge = (field: string) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `${field}: the image must be at most ${MAX_LETTERHEAD_BYTES / 1024 / 1024} MB`,
    { field },
  );

async function readImage(part: MultipartFile): Promise<Buffer> {
  const { file } = part;
  file.once('limit', () => file.destroy(tooLarge(part.fieldname)));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    const data = chunk as Buffer;
    size += data.byteLength;
    if (size > MAX_LETTERHEAD_BYTES) throw tooLarge(part.fieldname);
    chunks.push(data);
  }
  if (file.truncated) throw tooLarge(part.fieldname);
  return Buffer.concat(chunks, size);
}

function multipartFault(error: unknown): AppError | null {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', 'Send at most one header_file and one footer_file');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', 'The form has too many fields');
    case 'FST_PROTO_VIOLATION':
      return new AppError('VALIDATION_FAILED', 'The form has a field name that is not allowed');
    default:
      return null;
  }
}

/** Stop parsing a refused form and let the rest of the body go by unread (see form-data.ts). */
function discardRest(raw: IncomingMessage): void {
  if (raw.complete) return;
  raw.unpipe();
  raw.resume();
}

/**
 * Each image non-empty, a PNG or JPEG by content (415 naming the field otherwise) and within the
 * pixel limit (413 naming the field): a letterhead is drawn on every page of every document.
 */
async function checkImage(field: TFileField, filename: string, data: Buffer): Promise<void> {
  if (data.byteLength === 0) {
    throw new AppError('VALIDATION_FAILED', `${field} (${filename}): the file is empty`, { field });
  }
  const mediaType = await sniffMediaType(data);
  if (!mediaType || !(LETTERHEAD_MEDIA_TYPES as readonly string[]).includes(mediaType)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `${field} (${filename}): only PNG and JPEG images are accepted`,
      {
        field,
        detected: mediaType,
      },
    );
  }
  assertImagePixels(field, filename, data);
}

/**
 * Reads the letterhead form: multipart/form-data, or JSON with enable_letterhead only. 400 for an
 * unknown file field, a repeated one or a bad flag; 413 for an image over the limit; 415 for an
 * image that is not a PNG or JPEG by content.
 */
export async function readLetterheadForm(request: FastifyRequest): Promise<TLetterheadUpload> {
  if (!request.isMultipart()) {
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the letterhead as multipart/form-data');
    }
    const fields = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(value)]));
    return { enable: parseFields(ZLetterheadFields, fields).enable_letterhead };
  }
  const fields: Record<string, string> = {};
  const upload: TLetterheadUpload = {};
  try {
    for await (const part of request.parts({ limits: LETTERHEAD_MULTIPART_LIMITS })) {
      if (part.type === 'file') {
        const field = part.fieldname;
        if (!isFileField(field)) {
          throw new AppError(
            'VALIDATION_FAILED',
            `${field}: images are accepted only as header_file and footer_file`,
            {
              field,
            },
          );
        }
        const key = field === 'header_file' ? 'header' : 'footer';
        if (upload[key]) throw new AppError('VALIDATION_FAILED', `${field}: send one image only`, { field });
        const data = await readImage(part);
        const filename = part.filename || `${key}.png`;
        await checkImage(field, filename, data);
        upload[key] = { filename, data };
        continue;
      }
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      fields[part.fieldname] = value;
    }
  } catch (error) {
    discardRest(request.raw);
    throw multipartFault(error) ?? error;
  }
  upload.enable = parseFields(ZLetterheadFields, fields).enable_letterhead;
  return upload;
}
