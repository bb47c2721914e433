import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError } from './blob-store.ts';
import { LocalDiskBlobStore, newBlobKey } from './local-disk-store.ts';

let root: string;
let store: LocalDiskBlobStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'ris-blobs-'));
  store = new LocalDiskBlobStore(root);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('LocalDiskBlobStore', () => {
  it('stores bytes and reports their size and SHA-256', async () => {
    const key = newBlobKey(new Date('2026-03-04T00:00:00Z'));
    expect(key).toMatch(/^2026\/03\/[0-9a-f-]{36}$/);
    const info = await store.put(key, Buffer.from('hello'));
    expect(info).toEqual({
      key,
      sizeBytes: 5,
      sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    });
    expect((await store.read(key)).toString()).toBe('hello');
    expect(await text(await store.open(key))).toBe('hello');
    expect(await store.exists(key)).toBe(true);
  });

  it('leaves no temporary files behind', async () => {
    const key = newBlobKey();
    await store.put(key, Buffer.alloc(1024, 7));
    const [year] = key.split('/');
    const files = await readdir(path.join(root, year ?? ''), { recursive: true });
    expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });

  it('deletes, and reports unknown keys as not found', async () => {
    const key = newBlobKey();
    await store.put(key, Buffer.from('x'));
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    await expect(store.read(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('refuses keys that could escape its directory', async () => {
    for (const key of ['../etc/passwd', '2026/01/../../x', '/abs/path', '2026/01/not-a-uuid']) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow(/invalid blob key/);
    }
  });
});
