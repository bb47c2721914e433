// Reading rendered report files in tests: text and embedded images of a PDF with poppler-utils
// (pdftotext, pdfimages; .ci/run installs them), the main part of a DOCX with jszip.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import JSZip from 'jszip';

const run = promisify(execFile);

async function withPdfFile<T>(pdf: Buffer, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ris-pdf-'));
  try {
    const file = path.join(dir, 'report.pdf');
    await writeFile(file, pdf);
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function poppler(tool: string, args: string[]): Promise<string> {
  try {
    return (await run(tool, args, { maxBuffer: 32 * 1024 * 1024 })).stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`${tool} is missing: install poppler-utils (apt-get install poppler-utils)`);
    }
    throw error;
  }
}

/** The PDF's text in reading order (pdftotext). */
export function pdfText(pdf: Buffer): Promise<string> {
  return withPdfFile(pdf, (file) => poppler('pdftotext', ['-enc', 'UTF-8', file, '-']));
}

/** How many images the PDF draws (pdfimages -list; soft masks not counted). */
export function pdfImageCount(pdf: Buffer): Promise<number> {
  return withPdfFile(pdf, async (file) => {
    const lines = (await poppler('pdfimages', ['-list', file])).split('\n').slice(2);
    return lines.filter((line) => /^\s*\d+\s+\d+\s+image\b/.test(line)).length;
  });
}

/** The XML of word/document.xml of a DOCX (fails when the file is not a zip with that part). */
export async function docxDocumentXml(docx: Buffer): Promise<string> {
  const zip = await JSZip.loadAsync(docx);
  const part = zip.file('word/document.xml');
  if (!part) throw new Error('word/document.xml is missing');
  return part.async('string');
}
