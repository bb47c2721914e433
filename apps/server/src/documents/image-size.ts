// Pixel size of a PNG or JPEG from its header, so both renderers can scale images (and letterheads)
// before handing them over: pdfmake and docx need a width and height, and an image whose size
// cannot be read is left out instead of failing the whole document. So is an image over the pixel
// limit (files/image-pixels.ts), before anything decodes it: a 140 KB PNG of 6000 × 6000 pixels took
// 5 s and 350 MB to prepare for a PDF.
import { pngOrJpegDimensions, withinPixelLimit } from '../files/image-pixels.ts';
import type { TDocumentImage } from './report-document.ts';

export type TPixelSize = { width: number; height: number };

/**
 * Width and height in pixels, or null when the bytes are not a PNG or JPEG this can read or the
 * image is over the pixel limit: either way the image is left out of the document.
 */
export function imagePixelSize(image: TDocumentImage): TPixelSize | null {
  const size = pngOrJpegDimensions(image.data);
  return size && withinPixelLimit(size) ? size : null;
}

export type TBox = { width: number; height: number };

/** The box scaled (up or down) to the largest size that fits maxWidth × maxHeight, aspect kept. */
export function containBox(box: TBox, maxWidth: number, maxHeight: number): TBox {
  const scale = Math.min(maxWidth / box.width, maxHeight / box.height);
  return { width: box.width * scale, height: box.height * scale };
}

/** The box scaled down (never up) to fit maxWidth × maxHeight, aspect kept. */
export function shrinkBox(box: TBox, maxWidth: number, maxHeight: number): TBox {
  const scale = Math.min(1, maxWidth / box.width, maxHeight / box.height);
  return { width: box.width * scale, height: box.height * scale };
}
