import { describe, expect, it } from 'vitest';
import { hugePng, solidJpeg, solidPng } from '../documents/sample-report.ts';
import { AppError } from '../http/app-error.ts';
import { assertImagePixels, imageDimensions, MAX_IMAGE_PIXELS, withinPixelLimit } from './image-pixels.ts';

/** A GIF header (logical screen width × height) followed by an empty image: enough for its size. */
function gifHeader(width: number, height: number): Buffer {
  const data = Buffer.alloc(13);
  data.write('GIF89a', 0, 'latin1');
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  return Buffer.concat([data, Buffer.from([0x3b])]);
}

describe('image pixel limit', () => {
  it('reads dimensions from the header of PNG, JPEG and GIF, null for anything else', () => {
    expect(imageDimensions(solidPng(30, 20, [0, 0, 0]).data)).toEqual({ width: 30, height: 20 });
    expect(imageDimensions(solidJpeg(16, 8, [0, 0, 0]).data)).toEqual({ width: 16, height: 8 });
    expect(imageDimensions(gifHeader(65_535, 65_535))).toEqual({ width: 65_535, height: 65_535 });
    expect(imageDimensions(Buffer.from('not an image'))).toBeNull();
  });

  it('allows 25 megapixels and no more', () => {
    expect(MAX_IMAGE_PIXELS).toBe(25_000_000);
    expect(withinPixelLimit({ width: 5000, height: 5000 })).toBe(true);
    expect(withinPixelLimit({ width: 5000, height: 5001 })).toBe(false);
  });

  it('refuses an upload over the limit with 413 naming the field, and one it cannot measure with 400', () => {
    const refusal = (data: Buffer) => {
      try {
        assertImagePixels('header_file', 'head.png', data);
        return null;
      } catch (error) {
        return error instanceof AppError ? { status: error.status, message: error.message } : error;
      }
    };
    expect(refusal(hugePng(6000, 6000).data)).toEqual({
      status: 413,
      message: 'header_file (head.png): the image is 6000 × 6000 pixels; at most 25 megapixels are accepted',
    });
    expect(refusal(gifHeader(10_000, 10_000))).toMatchObject({ status: 413 });
    expect(refusal(Buffer.from('nothing'))).toMatchObject({ status: 400 });
    expect(refusal(solidPng(2480, 360, [1, 2, 3]).data)).toBeNull();
  });
});
