import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { solidJpeg, solidPng } from '../sample-report.ts';
import { needsFlattening, printableImage } from './printable-image.ts';

function pngWith(colorType: 0 | 2 | 4 | 6, rgba: [number, number, number, number]): Buffer {
  const png = new PNG({ width: 4, height: 2, colorType, inputColorType: 6, inputHasAlpha: true });
  for (let i = 0; i < png.data.length; i += 4) png.data.set(rgba, i);
  return PNG.sync.write(png, { colorType, inputColorType: 6, inputHasAlpha: true });
}

describe('printableImage', () => {
  it('leaves opaque PNGs and JPEGs as they are', () => {
    const png = solidPng(8, 8, [1, 2, 3]);
    const jpeg = solidJpeg(8, 8, [1, 2, 3]);
    expect(needsFlattening(png.data)).toBe(false);
    expect(printableImage(png)).toBe(png);
    expect(printableImage(jpeg)).toBe(jpeg);
  });

  it('flattens PNGs with an alpha channel onto white, once per content', () => {
    const data = pngWith(6, [255, 0, 0, 128]);
    expect(needsFlattening(data)).toBe(true);
    expect(needsFlattening(pngWith(4, [0, 0, 0, 10]))).toBe(true);
    const flat = printableImage({ data, mediaType: 'image/png' });
    expect(flat).not.toBeNull();
    const decoded = PNG.sync.read(flat?.data ?? Buffer.alloc(0));
    expect(flat?.data[25]).toBe(2); // IHDR colour type: RGB, no alpha
    expect([...decoded.data.subarray(0, 4)]).toEqual([255, 127, 127, 255]);
    // The same bytes in another buffer (a letterhead loaded again) hit the cache.
    expect(printableImage({ data: Buffer.from(data), mediaType: 'image/png' })).toBe(flat);
  });

  it('leaves out a PNG that claims transparency but cannot be decoded', () => {
    const broken = Buffer.from(pngWith(6, [0, 0, 0, 0]));
    broken.fill(7, 40);
    expect(printableImage({ data: broken, mediaType: 'image/png' })).toBeNull();
  });
});
