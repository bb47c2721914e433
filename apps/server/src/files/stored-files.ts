import { fileTypeFromBuffer } from 'file-type';
import { eq } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { AppError } from '../http/app-error.ts';
import type { BlobStore } from './blob-store.ts';
import { assertImagePixels } from './image-pixels.ts';
import { newBlobKey } from './local-disk-store.ts';

export type TStoredFile = typeof storedFiles.$inferSelect;

export type TStoreFileInput = {
  data: Buffer;
  originalName: string | null;
  organisationId: string | null;
  createdBy: string | null;
  /** Media types this upload may be, decided by its content (never by its name or declared type). */
  accept: readonly string[];
  maxBytes: number;
};

/**
 * The media type of a file by its content (magic bytes), or null when it is not recognisable.
 * DOCX/XLSX are recognised as their Office types, not as plain zip.
 */
export async function sniffMediaType(data: Buffer): Promise<string | null> {
  return (await fileTypeFromBuffer(data))?.mime ?? null;
}

/**
 * Checks an upload by size, content and (images) pixel count, writes its bytes to the blob store and records it in
 * stored_files (hash, size, media type). Run it inside the command's transaction: if the
 * transaction fails, the row disappears and the orphaned blob is harmless (never referenced).
 */
export async function storeFile(db: TDbOrTx, blobs: BlobStore, input: TStoreFileInput): Promise<TStoredFile> {
  const field = input.originalName ?? 'file';
  if (input.data.byteLength === 0) throw new AppError('VALIDATION_FAILED', `${field}: the file is empty`);
  if (input.data.byteLength > input.maxBytes) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `${field}: the file is larger than ${Math.floor(input.maxBytes / 1024 / 1024)} MB`,
    );
  }
  const mediaType = await sniffMediaType(input.data);
  if (!mediaType || !input.accept.includes(mediaType)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `${field}: this kind of file is not accepted here (accepted: ${input.accept.join(', ')})`,
      { detected: mediaType },
    );
  }
  // Every stored image within the pixel limit, whichever route stored it (no decompression bombs).
  if (mediaType.startsWith('image/')) assertImagePixels('file', field, input.data);
  const info = await blobs.put(newBlobKey(), input.data);
  const [row] = await db
    .insert(storedFiles)
    .values({
      organisationId: input.organisationId,
      storageDriver: blobs.driver,
      storageKey: info.key,
      sha256: info.sha256,
      sizeBytes: info.sizeBytes,
      mediaType,
      originalName: input.originalName,
      createdBy: input.createdBy,
    })
    .returning();
  if (!row) throw new Error('stored_files insert returned nothing');
  return row;
}

/** The stored file with this id (null for null). */
export async function findStoredFile(db: TDbOrTx, fileId: string | null): Promise<TStoredFile | null> {
  if (!fileId) return null;
  const [file] = await db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
  return file ?? null;
}
