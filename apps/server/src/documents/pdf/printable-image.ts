// Images prepared for pdfkit. pdfkit copies an opaque, non-interlaced 8-bit PNG's compressed data
// straight into the PDF, but decodes every pixel in JavaScript (png-js) to split out an alpha
// channel, de-interlace or reduce 16-bit samples — for every document: a 2480 px wide letterhead
// with transparency adds ~100 ms to each render. Such a PNG is flattened once onto white (what
// paper is; the PDF looks the same) into an opaque 8-bit PNG, and kept in a small cache keyed by
// content, so a facility's letterhead and a radiologist's signature are prepared once per process.
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { imagePixelSize } from '../image-size.ts';
import type { TDocumentImage } from '../report-document.ts';

const CACHE_BYTES = 48 * 1024 * 1024;
const cache = new Map<string, TDocumentImage>();
let cachedBytes = 0;

/** Whether pdfkit would have to decode the PNG's pixels (alpha, transparency, interlace, 16-bit). */
export function needsFlattening(data: Buffer): boolean {
  if (data.length < 33 || data.readUInt32BE(12) !== 0x49484452) return false; // no IHDR: not ours to judge
  const bitDepth = data[24];
  const colorType = data[25];
  const interlace = data[28];
  if (bitDepth === 16 || colorType === 4 || colorType === 6 || interlace === 1) return true;
  // A tRNS chunk (transparent colour or palette alpha) comes before the image data.
  let offset = 8;
  while (offset + 8 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset += 12 + length;
  }
  return false;
}

function flatten(data: Buffer): Buffer {
  const source = PNG.sync.read(data);
  const { width, height } = source;
  const out = new PNG({ width, height, colorType: 2, inputColorType: 6, inputHasAlpha: true });
  for (let i = 0; i < width * height * 4; i += 4) {
    const alpha = (source.data[i + 3] ?? 255) / 255;
    for (let c = 0; c < 3; c++)
      out.data[i + c] = Math.round((source.data[i + c] ?? 0) * alpha + 255 * (1 - alpha));
    out.data[i + 3] = 255;
  }
  return PNG.sync.write(out, { colorType: 2, inputColorType: 6, inputHasAlpha: true, filterType: 1 });
}

/**
 * The image as pdfkit embeds it fastest; null for an image that cannot be read, is over the pixel
 * limit (never decoded) or is a PNG that cannot be decoded: it is left out.
 */
export function printableImage(image: TDocumentImage): TDocumentImage | null {
  if (!imagePixelSize(image)) return null;
  if (image.mediaType !== 'image/png' || !needsFlattening(image.data)) return image;
  const key = createHash('sha256').update(image.data).digest('hex');
  const hit = cache.get(key);
  if (hit) {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  let prepared: TDocumentImage;
  try {
    prepared = { data: flatten(image.data), mediaType: 'image/png' };
  } catch {
    return null;
  }
  cache.set(key, prepared);
  cachedBytes += prepared.data.length;
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(oldKey);
    cachedBytes -= old.data.length;
  }
  return prepared;
}
