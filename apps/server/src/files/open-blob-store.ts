import path from 'node:path';
import type { BlobStore } from './blob-store.ts';
import { LocalDiskBlobStore } from './local-disk-store.ts';
import type { TS3Config } from './s3-settings.ts';
import { S3BlobStore } from './s3-store.ts';

/** The file store the configuration names: the S3-compatible bucket (S3_BUCKET), else DATA_DIR/files. */
export function openBlobStore(config: { s3: TS3Config | null; dataDir: string }): BlobStore {
  return config.s3 ? new S3BlobStore(config.s3) : new LocalDiskBlobStore(path.join(config.dataDir, 'files'));
}
