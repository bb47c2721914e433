// Reading stored images (key images, signatures, letterheads) for rendering: only PNG and JPEG are
// drawn (the renderer's formats); bytes the database points at but the blob store lacks are a
// fault that must not produce a silently incomplete document.
import { REPORT_IMAGE_SRC } from '@ris/editor';
import { and, eq, inArray } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { reportImages, storedFiles } from '../../db/schema/index.ts';
import type { TDocumentImage } from '../../documents/report-document.ts';
import { BlobNotFoundError, type BlobStore } from '../../files/blob-store.ts';
import type { TStoredFile } from '../../files/stored-files.ts';
import { AppError } from '../../http/app-error.ts';

const DRAWABLE = new Set<string>(['image/png', 'image/jpeg']);

/**
 * The bytes of a stored image, or null when it is not a PNG or JPEG (the renderer draws only
 * those). A file missing from the blob store answers 409 naming `what`: a document without its
 * signature or letterhead must not be produced, least of all a final one.
 */
export async function readDocumentImage(
  blobs: BlobStore,
  file: TStoredFile | null,
  what: string,
): Promise<TDocumentImage | null> {
  if (!file || !DRAWABLE.has(file.mediaType)) return null;
  try {
    return {
      data: await blobs.read(file.storageKey),
      mediaType: file.mediaType as TDocumentImage['mediaType'],
    };
  } catch (error) {
    if (!(error instanceof BlobNotFoundError)) throw error;
    throw new AppError(
      'CONFLICT',
      `${what}: the stored image is missing from file storage; upload it again before producing this document`,
      { reason: 'file-missing', file_id: file.id },
    );
  }
}

/** Every `src` of an <img> in sanitised report HTML (attributes are always double-quoted there). */
function imageSources(html: string): string[] {
  return [...html.matchAll(/<img\b[^>]*?\ssrc="([^"]*)"/g)].map((match) => match[1] ?? '');
}

/**
 * The key images the HTML fragments show, keyed by their exact src: only images of this report
 * (REPORT_IMAGE_SRC naming it) that are still attached to it; others are left out by the renderer.
 */
export async function loadKeyImages(
  db: TDbOrTx,
  blobs: BlobStore,
  reportId: string,
  htmlFragments: readonly string[],
): Promise<Map<string, TDocumentImage>> {
  const wanted = new Map<string, string>();
  for (const src of htmlFragments.flatMap(imageSources)) {
    const match = REPORT_IMAGE_SRC.exec(src);
    if (match?.[1] === reportId.toLowerCase() && match[2]) wanted.set(match[2], src);
  }
  const images = new Map<string, TDocumentImage>();
  if (wanted.size === 0) return images;
  const rows = await db
    .select({ imageId: reportImages.id, file: storedFiles })
    .from(reportImages)
    .innerJoin(storedFiles, eq(storedFiles.id, reportImages.fileId))
    .where(and(eq(reportImages.reportId, reportId), inArray(reportImages.id, [...wanted.keys()])));
  for (const row of rows) {
    const src = wanted.get(row.imageId);
    const image = await readDocumentImage(
      blobs,
      row.file,
      `Key image ${row.file.originalName ?? row.imageId}`,
    );
    if (src && image) images.set(src, image);
  }
  return images;
}
