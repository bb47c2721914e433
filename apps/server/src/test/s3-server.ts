// A local S3 server for tests (s3rver: the S3 REST protocol over a directory) on 127.0.0.1.
// It checks access key ids but not SigV4 signatures or Content-MD5; AWS, MinIO and Garage do.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { TS3Config } from '../files/s3-settings.ts';

/** s3rver's one account. */
export const S3RVER_KEY = 'S3RVER';

export type TS3Server = {
  endpoint: string;
  bucket: string;
  /** The S3_* variables that point the server at this bucket. */
  env: Record<string, string>;
  /** The same as a parsed configuration, for a store built without the server. */
  config: (prefix?: string) => TS3Config;
  /** Stops the server (a test may stop it early: "the store is down") and removes its files. */
  close(): Promise<void>;
};

export async function startS3Server(bucket = 'ris-files'): Promise<TS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'ris-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let closed = false;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    },
    config: (prefix = '') => ({
      bucket,
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
      forcePathStyle: true,
      prefix,
    }),
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
