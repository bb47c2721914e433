// A realistic report input for the renderer's tests and bench: about two pages of CT report with
// headings, lists, a table, two key images, a signature and an addendum. Images are solid colour
// blocks (PNG by pngjs, JPEG by jpeg-js; both development dependencies, as are tests and benches), so
// pixel checks on rendered pages are easy.
import { deflateSync } from 'node:zlib';
import { DEFAULT_REPORT_STYLE, type TReportStyle } from '@ris/domain';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { TDocumentImage, TReportDocumentInput } from './report-document.ts';

export type TRgb = readonly [number, number, number];

export const RED: TRgb = [255, 0, 0];
export const BLUE: TRgb = [0, 0, 255];
export const GREEN: TRgb = [0, 160, 0];

/** An opaque PNG (RGB, no alpha channel: what scanners and most letterhead files give). */
export function solidPng(width: number, height: number, rgb: TRgb): TDocumentImage {
  const png = new PNG({ width, height, colorType: 2 });
  for (let i = 0; i < width * height; i++) {
    png.data[i * 4] = rgb[0];
    png.data[i * 4 + 1] = rgb[1];
    png.data[i * 4 + 2] = rgb[2];
    png.data[i * 4 + 3] = 255;
  }
  return { data: PNG.sync.write(png, { colorType: 2 }), mediaType: 'image/png' };
}

export function solidJpeg(width: number, height: number, rgb: TRgb): TDocumentImage {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = rgb[0];
    data[i * 4 + 1] = rgb[1];
    data[i * 4 + 2] = rgb[2];
    data[i * 4 + 3] = 255;
  }
  return { data: Buffer.from(jpeg.encode({ data, width, height }, 90).data), mediaType: 'image/jpeg' };
}

/**
 * A photograph-like image (smooth shading plus noise, deterministic) that compresses like a real
 * key image: ~100 KB as an 800 × 600 JPEG.
 */
export function photoJpeg(width: number, height: number, seed = 1): TDocumentImage {
  const data = Buffer.alloc(width * height * 4);
  let state = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
      const shade = 60 + ((x * 120) / width + (y * 60) / height) + (state % 40);
      const i = (y * width + x) * 4;
      data[i] = data[i + 1] = data[i + 2] = Math.min(255, shade);
      data[i + 3] = 255;
    }
  }
  return { data: Buffer.from(jpeg.encode({ data, width, height }, 85).data), mediaType: 'image/jpeg' };
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid, fully decodable white PNG of width × height pixels (8-bit grey with
 * a transparent colour, so a PDF renderer would decode it to flatten it) that is tiny as a file:
 * 6000 × 6000 is ~35 KB, 36 million pixels.
 */
export function hugePng(width: number, height: number): TDocumentImage {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // bit depth 8, grey, deflate, filter 0, not interlaced
  const rows = Buffer.alloc(height * (width + 1), 255);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter type None
  const data = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('tRNS', Buffer.from([0, 0])),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return { data, mediaType: 'image/png' };
}

/** A letterhead as designers export it: 300 dpi, A4 wide, PNG with an alpha channel. */
export function letterheadPng(width: number, height: number, rgb: TRgb): TDocumentImage {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const band = x < width * 0.3 || y > height * 0.85;
      png.data[i] = rgb[0];
      png.data[i + 1] = rgb[1];
      png.data[i + 2] = rgb[2];
      png.data[i + 3] = band ? 255 : 0;
    }
  }
  return { data: PNG.sync.write(png), mediaType: 'image/png' };
}

const REPORT_ID = '0b9e7a52-3c1d-4e0f-9a55-2d8b1f6c7e10';
export const KEY_IMAGE_1 = `/api/v1/worklist/report/${REPORT_ID}/images/6f1c2d3e-4a5b-4c6d-8e7f-901234567890`;
export const KEY_IMAGE_2 = `/api/v1/worklist/report/${REPORT_ID}/images/7a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d`;

const FINDING =
  'The lungs are clear without focal consolidation, effusion or pneumothorax. The cardiomediastinal silhouette is within normal limits. No acute osseous abnormality is seen in the visualised skeleton.';

/** About two pages of report HTML as the editor stores it. */
export function sampleBodyHtml(): string {
  const rows = Array.from(
    { length: 6 },
    (_, i) =>
      `<tr><td><p>Segment ${i + 1}</p></td><td><p>${(12.5 + i).toFixed(1)} mm</p></td><td><p>stable</p></td></tr>`,
  ).join('');
  return [
    '<h2 style="text-align: center">CT CHEST WITH CONTRAST</h2>',
    '<h3>Clinical history</h3><p>Cough for three weeks; <em>follow-up</em> of a known nodule.</p>',
    '<h3>Technique</h3><p>Axial sections of the chest after intravenous contrast, <strong>1.25 mm</strong> reconstructions.</p>',
    '<h3>Findings</h3>',
    ...Array.from({ length: 2 }, () => `<p>${FINDING}</p>`),
    `<img src="${KEY_IMAGE_1}" alt="Axial image" width="260">`,
    `<table style="min-width: 75px"><colgroup><col><col><col></colgroup><tbody><tr><th><p>Site</p></th><th><p>Size</p></th><th><p>Change</p></th></tr>${rows}</tbody></table>`,
    '<ul><li><p>No lymphadenopathy.</p></li><li><p>No pleural effusion.</p><ul><li><p>Small pericardial recess, <u>normal</u>.</p></li></ul></li></ul>',
    `<p>${FINDING}</p>`,
    `<img src="${KEY_IMAGE_2}" alt="Coronal image" width="300">`,
    '<h3>Impression</h3><ol><li><p>Stable 8 mm nodule in the right upper lobe.</p></li><li><p>No new finding.</p></li></ol>',
  ].join('');
}

export type TSampleOptions = {
  letterhead?: boolean;
  final?: boolean;
  style?: Partial<TReportStyle>;
  bodyHtml?: string;
  /** Photograph-like key images and a 300 dpi letterhead with transparency (the bench). */
  realistic?: boolean;
};

/** A complete renderer input: patient, body with two key images, signature, addendum. */
export function sampleReportInput(options: TSampleOptions = {}): TReportDocumentInput {
  return {
    title: 'CT CHEST — REPORT',
    patient: {
      patientName: 'Asha Verma',
      patientId: 'PID-204518',
      ageSex: '42 Y / F',
      modality: 'CT',
      study: 'CT Chest with contrast',
      accessionNumber: 'ACC-99812',
      studyDate: '21 Nov 2026, 14:05',
      reportDate: '21 Nov 2026, 16:40',
      referringPhysician: 'Dr Kiran Mehta',
      facility: 'City General Hospital',
    },
    bodyHtml: options.bodyHtml ?? sampleBodyHtml(),
    images: new Map(
      options.realistic
        ? [
            [KEY_IMAGE_1, photoJpeg(800, 800, 1)],
            [KEY_IMAGE_2, photoJpeg(800, 600, 2)],
          ]
        : [
            [KEY_IMAGE_1, solidPng(512, 512, GREEN)],
            [KEY_IMAGE_2, solidJpeg(640, 480, [90, 90, 90])],
          ],
    ),
    signatures: [
      {
        displayName: 'Dr Anil Rao',
        description: 'MD Radiology\nReg. No. KMC 45122',
        image: solidPng(300, 90, [20, 20, 120]),
        signedNote: 'Electronically signed 21 Nov 2026, 16:40',
      },
    ],
    addenda: [
      {
        heading: 'Addendum 1 — Dr Anil Rao, 22 Nov 2026, 09:10',
        html: '<p>Comparison with the prior study of 2025 confirms the nodule is unchanged.</p>',
      },
    ],
    letterhead:
      options.letterhead === false
        ? { mode: 'blank' }
        : options.realistic
          ? {
              mode: 'letterhead',
              header: letterheadPng(2480, 360, RED),
              footer: letterheadPng(2480, 200, BLUE),
            }
          : { mode: 'letterhead', header: solidPng(1240, 180, RED), footer: solidPng(1240, 100, BLUE) },
    style: { ...DEFAULT_REPORT_STYLE, ...options.style },
    final: options.final ?? true,
    meta: { title: 'CT CHEST — REPORT', author: 'Dr Anil Rao', createdAt: new Date('2026-11-21T16:40:00Z') },
  };
}
