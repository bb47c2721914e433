// One contract for every BlobStore driver: the same tests against the local disk and against an
// S3-compatible server (s3rver on 127.0.0.1). Driver-specific behaviour has its own file
// (local-disk-store.test.ts, s3-store.test.ts).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../test/s3-server.ts';
import { BlobNotFoundError, type BlobStore } from './blob-store.ts';
import { LocalDiskBlobStore, newBlobKey } from './local-disk-store.ts';
import { S3BlobStore } from './s3-store.ts';

type TDriver = { name: string; open(): Promise<{ store: BlobStore; close(): Promise<void> }> };

const drivers: TDriver[] = [
  {
    name: 'LocalDiskBlobStore',
    async open() {
      const root = await mkdtemp(path.join(os.tmpdir(), 'ris-blobs-'));
      return { store: new LocalDiskBlobStore(root), close: () => rm(root, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3BlobStore (s3rver)',
    async open() {
      const server = await startS3Server();
      const store = new S3BlobStore(server.config('ris/files/'));
      return {
        store,
        async close() {
          store.close();
          await server.close();
        },
      };
    },
  },
];

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** Every byte value, and a few random megabytes (more than one socket buffer or stream chunk). */
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const MEGABYTES = randomBytes(3_500_000);

describe.each(drivers)('BlobStore contract: $name', (driver) => {
  let store: BlobStore;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, close } = await driver.open());
  });
  afterAll(async () => {
    await close();
  });

  it('answers its reachability check', async () => {
    await expect(store.checkReachable(3_000)).resolves.toBeUndefined();
  });

  it('stores bytes and reports their size and SHA-256; read, open and exists find them', async () => {
    const key = newBlobKey(new Date('2026-03-04T00:00:00Z'));
    expect(await store.put(key, Buffer.from('hello'))).toEqual({
      key,
      sizeBytes: 5,
      sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    });
    expect((await store.read(key)).toString()).toBe('hello');
    expect((await buffer(await store.open(key))).toString()).toBe('hello');
    expect(await store.exists(key)).toBe(true);
  });

  it('gives back every byte value, and megabytes through a stream, unchanged', async () => {
    const small = newBlobKey();
    await store.put(small, ALL_BYTES);
    expect((await store.read(small)).equals(ALL_BYTES)).toBe(true);
    const big = newBlobKey();
    expect(MEGABYTES.byteLength).toBeGreaterThan(3_000_000);
    const info = await store.put(big, MEGABYTES);
    expect(info).toEqual({ key: big, sizeBytes: MEGABYTES.byteLength, sha256: sha256(MEGABYTES) });
    expect(sha256(await buffer(await store.open(big)))).toBe(info.sha256);
  });

  it('deletes (twice without complaint) and then reports the key as not found', async () => {
    const key = newBlobKey();
    await store.put(key, Buffer.from('x'));
    await store.delete(key);
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    await expect(store.read(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('reports a key it never stored as not found, naming the key', async () => {
    const key = newBlobKey();
    expect(await store.exists(key)).toBe(false);
    await expect(store.read(key)).rejects.toMatchObject({ name: 'BlobNotFoundError', key });
    await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('refuses keys it did not make (traversal, absolute, free text) in every operation', async () => {
    for (const key of ['../etc/passwd', '2026/01/../../x', '/abs/path', '2026/01/not-a-uuid', '']) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow(/invalid blob key/);
      await expect(store.read(key), key).rejects.toThrow(/invalid blob key/);
      await expect(store.open(key), key).rejects.toThrow(/invalid blob key/);
      await expect(store.exists(key), key).rejects.toThrow(/invalid blob key/);
      await expect(store.delete(key), key).rejects.toThrow(/invalid blob key/);
    }
  });
});
