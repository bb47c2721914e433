// Small PNG files for upload tests, made here so they pass the server's content check (a real IHDR,
// IDAT and IEND), with whatever picture the test wants to recognise later.
import { crc32, deflateSync } from 'node:zlib';

export type TRgb = readonly [number, number, number];

/** An RGB PNG of `width` × `height`, each pixel from `colour(x, y)`. */
export function png(width: number, height: number, colour: (x: number, y: number) => TRgb): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) rows.set(colour(x, y), y * (width * 3 + 1) + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A letterhead-like banner: a dark blue band with a lighter stripe, easy to tell from paper. */
export function bannerPng(width = 1200, height = 180): Buffer {
  return png(width, height, (x, y) =>
    y > height * 0.7 ? [56, 189, 248] : x < height ? [250, 204, 21] : [30, 64, 175],
  );
}
