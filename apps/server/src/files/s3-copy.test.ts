// The one-off move of stored files from the local disk into a bucket (s3-copy.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { buildOrganisation } from '../test/factories.ts';
import { startS3Server, type TS3Server } from '../test/s3-server.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { LocalDiskBlobStore } from './local-disk-store.ts';
import { copyLocalFilesTo } from './s3-copy.ts';
import { S3BlobStore } from './s3-store.ts';
import { storeFile, type TStoredFile } from './stored-files.ts';

let database: TDatabase;
let root: string;
let s3: TS3Server;

beforeAll(async () => {
  [database, root, s3] = await Promise.all([
    createTestDatabase(),
    mkdtemp(path.join(os.tmpdir(), 'ris-files-')),
    startS3Server(),
  ]);
});
afterAll(async () => {
  await Promise.all([database.close(), rm(root, { recursive: true, force: true }), s3.close()]);
});

const pdf = (n: number) => Buffer.from(`%PDF-1.7\n% file ${n}\ntrailer\n<< >>\n%%EOF\n`);

describe('copyLocalFilesTo', () => {
  it('copies every local file into the bucket, marks it moved, reports missing and damaged ones, and can run again', async () => {
    const local = new LocalDiskBlobStore(root);
    const bucket = new S3BlobStore(s3.config('ris/'));
    const organisationId = (await buildOrganisation(database.db)).id;
    const stored: TStoredFile[] = [];
    for (let n = 0; n < 11; n += 1) {
      stored.push(
        await storeFile(database.db, local, {
          data: pdf(n),
          originalName: `f${n}.pdf`,
          organisationId,
          createdBy: null,
          accept: ['application/pdf'],
          maxBytes: 1024,
        }),
      );
    }
    const [gone, damaged] = stored;
    if (!gone || !damaged) throw new Error('no files');
    await local.delete(gone.storageKey);
    await writeFile(path.join(root, ...damaged.storageKey.split('/')), 'not what was stored');

    // Pages of 4 rows: the 11 files take three.
    const report = await copyLocalFilesTo(database.db, local, bucket, { batchSize: 4 });
    expect(report).toEqual({ copied: 9, missing: [gone.storageKey], damaged: [damaged.storageKey] });
    for (const [n, file] of stored.entries()) {
      if (n < 2) continue;
      expect((await bucket.read(file.storageKey)).equals(pdf(n))).toBe(true);
    }
    const drivers = await database.db
      .select({ key: storedFiles.storageKey, driver: storedFiles.storageDriver })
      .from(storedFiles)
      .where(eq(storedFiles.organisationId, organisationId));
    expect(drivers.filter((row) => row.driver === 's3')).toHaveLength(9);
    expect(
      drivers
        .filter((row) => row.driver === 'local')
        .map((row) => row.key)
        .sort(),
    ).toEqual([gone.storageKey, damaged.storageKey].sort());
    expect(await bucket.exists(damaged.storageKey)).toBe(false);

    // A second run only looks at what is still local.
    expect(await copyLocalFilesTo(database.db, local, bucket)).toEqual({
      copied: 0,
      missing: [gone.storageKey],
      damaged: [damaged.storageKey],
    });
    bucket.close();
  });
});
