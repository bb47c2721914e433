// The letterhead upload form (POST /user/facility/{id}/letterhead): enable_letterhead and up to two
// images, header_file and footer_file, read and checked by the one multipart module
// (http/multipart.ts, files/upload-checks.ts): limits applied while the form streams, every image
// checked by its content and pixel count before anything is stored.
import { LETTERHEAD_MEDIA_TYPES, MAX_LETTERHEAD_BYTES, ZLetterheadFields } from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import { parseFields, readForm, type TFormLimits } from '../../http/multipart.ts';
import { checkUploads } from '../../files/upload-checks.ts';
import type { TLetterheadUpload } from './facility.commands.ts';

/** Two images at most (one header, one footer), PNG or JPEG, and a handful of short text fields. */
export const LETTERHEAD_FORM_LIMITS: TFormLimits = {
  noun: 'image',
  accept: LETTERHEAD_MEDIA_TYPES,
  acceptLabel: 'PNG or JPEG',
  maxBytes: MAX_LETTERHEAD_BYTES,
  maxFiles: 2,
  maxTotalBytes: 2 * MAX_LETTERHEAD_BYTES,
  fileFields: ['header_file', 'footer_file'],
  maxFields: 10,
  maxFieldBytes: 1024,
};

/**
 * Reads the letterhead form: multipart/form-data, or JSON with enable_letterhead only. 400 for an
 * unknown file field, a repeated one, a bad flag, a malformed or empty form; 413 for an image over
 * the size or pixel limit; 415 for an image that is not a PNG or JPEG by content.
 */
export async function readLetterheadForm(request: FastifyRequest): Promise<TLetterheadUpload> {
  const form = await readForm(request, LETTERHEAD_FORM_LIMITS);
  const upload: TLetterheadUpload = {};
  for (const file of form.files) {
    const key = file.field === 'header_file' ? 'header' : 'footer';
    if (upload[key]) {
      throw new AppError('VALIDATION_FAILED', `${file.field}: send one image only`, { field: file.field });
    }
    upload[key] = { filename: file.filename, data: file.data };
  }
  await checkUploads(form.files, LETTERHEAD_FORM_LIMITS, { optional: true });
  const enable = parseFields(ZLetterheadFields, form.fields).enable_letterhead;
  if (enable !== undefined) upload.enable = enable;
  if (!upload.header && !upload.footer && upload.enable === undefined) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The form is empty: send enable_letterhead, header_file or footer_file',
      { field: 'body' },
    );
  }
  return upload;
}
