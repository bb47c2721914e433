// The POST /user form: its text fields (ZSaveUserFields) and at most one signature image, read and
// checked by the one multipart module (http/multipart.ts, files/upload-checks.ts) before anything is
// written, plus the signature's own pixel limit (smaller than the general one).
import {
  MAX_SIGNATURE_BYTES,
  MAX_SIGNATURE_PIXELS,
  SIGNATURE_MEDIA_TYPES,
  ZSaveUserFields,
  type TSaveUserFields,
} from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import { imageDimensions } from '../../files/image-pixels.ts';
import { checkUploads } from '../../files/upload-checks.ts';
import { AppError } from '../../http/app-error.ts';
import { parseFields, readForm, type TFormLimits } from '../../http/multipart.ts';

export const SIGNATURE_FIELD = 'signature_file';

/** One PNG or JPEG signature of at most 1 MB; facility_fks may repeat (one field per facility). */
export const USER_FORM_LIMITS: TFormLimits = {
  noun: 'image',
  accept: SIGNATURE_MEDIA_TYPES,
  acceptLabel: 'PNG or JPEG',
  maxBytes: MAX_SIGNATURE_BYTES,
  maxFiles: 1,
  maxTotalBytes: MAX_SIGNATURE_BYTES,
  fileFields: [SIGNATURE_FIELD],
  maxFields: 250,
  maxFieldBytes: 8 * 1024,
};

export type TSignatureUpload = { filename: string; data: Buffer };
export type TUserForm = { fields: TSaveUserFields; signature: TSignatureUpload | null };

/** 413 naming signature_file: more pixels than a signature needs (and than documents should decode). */
function assertSignaturePixels(upload: TSignatureUpload): void {
  const size = imageDimensions(upload.data);
  if (size && size.width * size.height > MAX_SIGNATURE_PIXELS) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `${SIGNATURE_FIELD} (${upload.filename}): the image is ${size.width} × ${size.height} pixels; a signature may have at most ${MAX_SIGNATURE_PIXELS / 1_000_000} megapixels`,
      { field: SIGNATURE_FIELD, width: size.width, height: size.height },
    );
  }
}

/**
 * Reads the form (multipart/form-data, or JSON without the image): 400 naming a field that is
 * missing or invalid, 413 for an image over 1 MB or 4 megapixels, 415 for one that is not a PNG or
 * JPEG by its content.
 */
export async function readUserForm(request: FastifyRequest): Promise<TUserForm> {
  const form = await readForm(request, USER_FORM_LIMITS);
  const fields = parseFields(ZSaveUserFields, form.fields);
  await checkUploads(form.files, USER_FORM_LIMITS, { optional: true });
  const [file] = form.files;
  const signature = file ? { filename: file.filename, data: file.data } : null;
  if (signature) assertSignaturePixels(signature);
  return { fields, signature };
}
