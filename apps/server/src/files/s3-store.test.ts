// What only the S3 driver does: where objects land in the bucket, and how it fails when the store
// refuses, is missing, is down or hangs (a bounded 503, never a hang or a BlobNotFoundError).
import { createServer, type Server, type Socket } from 'node:net';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error.ts';
import { startS3Server, type TS3Server } from '../test/s3-server.ts';
import { closedPort } from '../test/smtp-capture.ts';
import { newBlobKey } from './local-disk-store.ts';
import { s3ClientOf, S3BlobStore, type TS3Limits } from './s3-store.ts';

let s3: TS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

const FAST: TS3Limits = {
  connectTimeoutMs: 300,
  requestTimeoutMs: 1_000,
  idleTimeoutMs: 300,
  maxAttempts: 2,
};

/** Rejects with the 503 every failing store answers, and says how long it took. */
async function refusal(operation: Promise<unknown>): Promise<{ status: number; code: string; ms: number }> {
  const started = performance.now();
  const error: unknown = await operation.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { status: error.status, code: error.code, ms: performance.now() - started };
}

describe('S3BlobStore', () => {
  it('writes each blob at S3_PREFIX + its key, and nothing else', async () => {
    const store = new S3BlobStore(s3.config('site-a/files/'));
    const key = newBlobKey(new Date('2026-05-06T00:00:00Z'));
    await store.put(key, Buffer.from('%PDF-1.7 test'));
    const client = s3ClientOf(s3.config());
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'site-a/' }));
    expect(listed.Contents?.map((object) => object.Key)).toEqual([`site-a/files/${key}`]);
    const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `site-a/files/${key}` }));
    expect(head.ContentLength).toBe(13);
    // Another prefix is another store: it does not see the blob.
    expect(await new S3BlobStore(s3.config('site-b/')).exists(key)).toBe(false);
    client.destroy();
    store.close();
  });

  it('answers 503 when the store refuses its keys, and fails its reachability check', async () => {
    const store = new S3BlobStore(
      { ...s3.config(), credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'whatever-secret' } },
      FAST,
    );
    const key = newBlobKey();
    expect(await refusal(store.put(key, Buffer.from('x')))).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(await refusal(store.read(key))).toMatchObject({ status: 503 });
    expect(await refusal(store.exists(key))).toMatchObject({ status: 503 });
    await expect(store.checkReachable(1_000)).rejects.toThrow();
    store.close();
  });

  it('treats a missing bucket as the store failing (503), not as a missing file', async () => {
    const store = new S3BlobStore({ ...s3.config(), bucket: 'no-such-bucket' }, FAST);
    const key = newBlobKey();
    expect(await refusal(store.read(key))).toMatchObject({ status: 503 });
    expect(await refusal(store.open(key))).toMatchObject({ status: 503 });
    expect(await refusal(store.put(key, Buffer.from('x')))).toMatchObject({ status: 503 });
    await expect(store.checkReachable(1_000)).rejects.toThrow();
    store.close();
  });

  it('gives up on a store that is down within its limits', async () => {
    const store = new S3BlobStore(
      { ...s3.config(), endpoint: `http://127.0.0.1:${await closedPort()}` },
      FAST,
    );
    const result = await refusal(store.put(newBlobKey(), Buffer.from('x')));
    expect(result).toMatchObject({ status: 503 });
    expect(result.ms).toBeLessThan(3_000);
    store.close();
  });

  it('gives up on a store that accepts connections and never answers, within its limits', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const store = new S3BlobStore({ ...s3.config(), endpoint: `http://127.0.0.1:${address.port}` }, FAST);
    const result = await refusal(store.read(newBlobKey()));
    expect(result).toMatchObject({ status: 503 });
    // Two tries of 300 ms idle time-out (the 1 s answer time-out comes later) plus the back-off.
    expect(result.ms).toBeGreaterThan(500);
    expect(result.ms).toBeLessThan(4_000);
    expect(sockets.size).toBe(2);
    await expect(store.checkReachable(200)).rejects.toThrow();
    store.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});
