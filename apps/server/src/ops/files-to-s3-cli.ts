// `npm run files:to-s3`: copies the files of DATA_DIR/files into the bucket the S3_* settings name
// and marks them as moved (files/s3-copy.ts). Exits 1 when it cannot run; 2 when some files the database
// names were missing or damaged on the disk (listed; they stay marked local).
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { pendingMigrationCount } from '../db/migrate.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';
import { copyLocalFilesTo } from '../files/s3-copy.ts';
import { S3BlobStore } from '../files/s3-store.ts';

try {
  const config = loadConfig();
  if (!config.s3)
    throw new ConfigError(['S3_BUCKET: set the S3_* settings of the bucket to copy the files into']);
  const database = await openDatabase(config.database);
  const bucket = new S3BlobStore(config.s3);
  try {
    if ((await pendingMigrationCount(database.db)) !== 0) {
      throw new ConfigError(['the database is not fully migrated: start the server once first']);
    }
    await bucket.checkReachable(10_000);
    const started = performance.now();
    const local = new LocalDiskBlobStore(path.join(config.dataDir, 'files'));
    const report = await copyLocalFilesTo(database.db, local, bucket);
    const lines = [
      `Copied ${report.copied} files into ${config.s3.bucket} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      ...report.missing.map((key) => `  MISSING on the disk (left as it was): ${key}`),
      ...report.damaged.map((key) => `  DAMAGED on the disk, SHA-256 differs (left as it was): ${key}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (report.missing.length + report.damaged.length > 0) process.exitCode = 2;
  } finally {
    bucket.close();
    await database.close();
  }
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
