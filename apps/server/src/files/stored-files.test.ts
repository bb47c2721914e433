import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { AppError } from '../http/app-error.ts';
import { buildOrganisation } from '../test/factories.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { LocalDiskBlobStore } from './local-disk-store.ts';
import { storeFile } from './stored-files.ts';

// A real 1×1 PNG and the start of a real PDF.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

let database: TDatabase;
let root: string;
let blobs: LocalDiskBlobStore;
let organisationId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  root = await mkdtemp(path.join(os.tmpdir(), 'ris-files-'));
  blobs = new LocalDiskBlobStore(root);
  organisationId = (await buildOrganisation(database.db)).id;
});
afterAll(async () => {
  await database.close();
  await rm(root, { recursive: true, force: true });
});

const accept = ['image/png', 'image/jpeg', 'application/pdf'] as const;

describe('storeFile', () => {
  it('records hash, size and the media type found in the content, and keeps the bytes', async () => {
    const row = await storeFile(database.db, blobs, {
      data: PNG,
      originalName: 'signature.png',
      organisationId,
      createdBy: null,
      accept,
      maxBytes: 1024 * 1024,
    });
    expect(row).toMatchObject({
      mediaType: 'image/png',
      sizeBytes: PNG.byteLength,
      sha256: createHash('sha256').update(PNG).digest('hex'),
      storageDriver: 'local',
      originalName: 'signature.png',
    });
    expect(await blobs.read(row.storageKey)).toEqual(PNG);
    const pdf = await storeFile(database.db, blobs, {
      data: PDF,
      originalName: 'requisition.pdf',
      organisationId,
      createdBy: null,
      accept,
      maxBytes: 1024 * 1024,
    });
    expect(pdf.mediaType).toBe('application/pdf');
  });

  it('refuses a file whose content is not an accepted type, whatever its name says', async () => {
    const attempt = storeFile(database.db, blobs, {
      data: Buffer.from('<script>alert(1)</script>'),
      originalName: 'header.png',
      organisationId,
      createdBy: null,
      accept,
      maxBytes: 1024 * 1024,
    });
    await expect(attempt).rejects.toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
    await expect(attempt).rejects.toThrow(/header\.png/);
    const rows = await database.db
      .select()
      .from(storedFiles)
      .where(eq(storedFiles.originalName, 'header.png'));
    expect(rows).toEqual([]);
  });

  it('refuses empty and oversize files with 4xx errors naming the file', async () => {
    const base = { originalName: 'scan.pdf', organisationId, createdBy: null, accept };
    await expect(
      storeFile(database.db, blobs, { ...base, data: Buffer.alloc(0), maxBytes: 10 }),
    ).rejects.toMatchObject({ status: 400 });
    const tooBig = storeFile(database.db, blobs, { ...base, data: PDF, maxBytes: 16 });
    await expect(tooBig).rejects.toBeInstanceOf(AppError);
    await expect(tooBig).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });
});
