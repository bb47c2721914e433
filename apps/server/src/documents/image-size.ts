// Pixel size of a PNG or JPEG from its header, so both renderers can scale images (and letterheads)
// before handing them over: pdfmake and docx need a width and height, and an image whose size
// cannot be read is left out instead of failing the whole document.
import type { TDocumentImage } from './report-document.ts';

export type TPixelSize = { width: number; height: number };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** JPEG start-of-frame markers (baseline, progressive, lossless...); C4, C8 and CC are not frames. */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Width and height in pixels, or null when the bytes are not a PNG or JPEG this can read. */
export function imagePixelSize(image: TDocumentImage): TPixelSize | null {
  const data = image.data;
  const size = isPng(data) ? pngSize(data) : isJpeg(data) ? jpegSize(data) : null;
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function isPng(data: Buffer): boolean {
  return data.length >= 24 && PNG_SIGNATURE.every((byte, i) => data[i] === byte);
}

function isJpeg(data: Buffer): boolean {
  return data.length >= 4 && data[0] === 0xff && data[1] === 0xd8;
}

function pngSize(data: Buffer): TPixelSize {
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function jpegSize(data: Buffer): TPixelSize | null {
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
