// The pixel limit of images we accept and render. A PNG of a few kilobytes can declare 20,000 ×
// 20,000 pixels: decoding it (to flatten transparency for a PDF, or in a reader's browser) costs
// gigabytes and seconds of the main thread. Dimensions are read from the file header only (PNG and
// JPEG here, WebP, GIF and the rest by the image-size library), never by decoding, and an image over
// the limit is refused at upload and left out of documents (documents/image-size.ts).
import { imageSize } from 'image-size';
import { AppError } from '../http/app-error.ts';

/** The most pixels (width × height) an image may have: 25 megapixels (e.g. 5000 × 5000). */
export const MAX_IMAGE_PIXELS = 25_000_000;

export type TImageDimensions = { width: number; height: number };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** JPEG start-of-frame markers (baseline, progressive, lossless...); C4, C8 and CC are not frames. */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/**
 * Width and height of a PNG (IHDR) or JPEG (any start-of-frame marker, which image-size does not
 * all know), or null for anything else. The renderers draw only these two kinds.
 */
export function pngOrJpegDimensions(data: Buffer): TImageDimensions | null {
  const size = isPng(data) ? pngSize(data) : isJpeg(data) ? jpegSize(data) : null;
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function isPng(data: Buffer): boolean {
  return data.length >= 24 && PNG_SIGNATURE.every((byte, i) => data[i] === byte);
}

function isJpeg(data: Buffer): boolean {
  return data.length >= 4 && data[0] === 0xff && data[1] === 0xd8;
}

function pngSize(data: Buffer): TImageDimensions {
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function jpegSize(data: Buffer): TImageDimensions | null {
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1] ?? 0;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (SOF_MARKERS.has(marker)) {
      return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    offset += 2 + data.readUInt16BE(offset + 2);
  }
  return null;
}

/** Width and height from the image's header (PNG, JPEG, WebP, GIF...), or null when unreadable. */
export function imageDimensions(data: Buffer): TImageDimensions | null {
  const known = pngOrJpegDimensions(data);
  if (known) return known;
  try {
    const { width, height } = imageSize(data);
    return width > 0 && height > 0 ? { width, height } : null;
  } catch {
    return null;
  }
}

/** Whether an image of this size may be decoded (at most MAX_IMAGE_PIXELS pixels). */
export function withinPixelLimit(size: TImageDimensions): boolean {
  return size.width * size.height <= MAX_IMAGE_PIXELS;
}

/**
 * Refuses (413 naming the field) an uploaded image over MAX_IMAGE_PIXELS or whose dimensions
 * cannot be read from its header. Run it after the media type has been checked by content.
 */
export function assertImagePixels(field: string, filename: string, data: Buffer): void {
  const size = imageDimensions(data);
  if (!size) {
    throw new AppError('VALIDATION_FAILED', `${field} (${filename}): the image's size cannot be read`, {
      field,
    });
  }
  if (!withinPixelLimit(size)) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `${field} (${filename}): the image is ${size.width} × ${size.height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels are accepted`,
      { field, width: size.width, height: size.height },
    );
  }
}
