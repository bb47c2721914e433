// The check every uploaded file passes before anything is written (storeFile checks again when it
// stores it): present, non-empty, within the size limit, of an accepted kind by its content (never
// its name or declared type) and, for every image, within the pixel limit (files/image-pixels.ts),
// so no stored image is a decompression bomb for the PDF renderer or a reader's browser.
import { assertImagePixels } from './image-pixels.ts';
import { sniffMediaType } from './stored-files.ts';
import { AppError } from '../http/app-error.ts';
import { fileFieldsOf, fileTooLarge, type TFormLimits, type TUpload } from '../http/multipart.ts';

export async function checkUploads(
  files: readonly TUpload[],
  limits: TFormLimits,
  options: { optional?: boolean } = {},
): Promise<void> {
  if (files.length === 0 && !options.optional) {
    const field = fileFieldsOf(limits)[0];
    throw new AppError('VALIDATION_FAILED', `${field}: choose at least one ${limits.noun}`, { field });
  }
  for (const file of files) {
    const { field } = file;
    const name = `${field} (${file.filename})`;
    if (file.data.byteLength === 0) {
      throw new AppError('VALIDATION_FAILED', `${name}: the file is empty`, { field });
    }
    if (file.data.byteLength > limits.maxBytes) throw fileTooLarge(limits, field);
    const mediaType = await sniffMediaType(file.data);
    if (!mediaType || !limits.accept.includes(mediaType)) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `${name}: this is not a ${limits.acceptLabel} ${limits.noun}`,
        { field, detected: mediaType },
      );
    }
    if (mediaType.startsWith('image/')) assertImagePixels(field, file.filename, file.data);
  }
}
