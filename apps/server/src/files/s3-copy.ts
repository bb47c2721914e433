// Moving the files of a running RIS from the local disk into an S3-compatible bucket, once
// (`npm run files:to-s3`). Keys stay the same, so only bytes move and rows change their driver.
import { createHash } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { TDb } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { BlobNotFoundError, type BlobStore } from './blob-store.ts';

export type TCopyReport = {
  copied: number;
  /** Keys the database names that the local store does not have (left marked local). */
  missing: string[];
  /** Keys whose local bytes do not match their SHA-256 any more (not copied, left marked local). */
  damaged: string[];
};

/** Files copied at once: enough to hide the bucket's latency, few enough for a small machine. */
const PARALLEL = 8;

/**
 * Copies every stored file still marked with the local driver into `to`, checked against its
 * recorded SHA-256 before it leaves, and marks each row with `to`'s driver once its object exists.
 * Safe to run again (it carries on with what is still local), also while the server runs on the
 * local disk: run it once more after stopping the server, before starting it on the bucket.
 */
export async function copyLocalFilesTo(
  db: TDb,
  from: BlobStore,
  to: BlobStore,
  { batchSize = 200 }: { batchSize?: number } = {},
): Promise<TCopyReport> {
  const report: TCopyReport = { copied: 0, missing: [], damaged: [] };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db
      .select({ id: storedFiles.id, key: storedFiles.storageKey, sha256: storedFiles.sha256 })
      .from(storedFiles)
      .where(and(eq(storedFiles.storageDriver, from.driver), gt(storedFiles.id, after)))
      .orderBy(asc(storedFiles.id))
      .limit(batchSize);
    const last = rows.at(-1);
    if (!last) return report;
    after = last.id;
    for (let start = 0; start < rows.length; start += PARALLEL) {
      await Promise.all(
        rows.slice(start, start + PARALLEL).map(async (row) => {
          let data: Buffer;
          try {
            data = await from.read(row.key);
          } catch (error) {
            if (!(error instanceof BlobNotFoundError)) throw error;
            report.missing.push(row.key);
            return;
          }
          if (createHash('sha256').update(data).digest('hex') !== row.sha256) {
            report.damaged.push(row.key);
            return;
          }
          await to.put(row.key, data);
          await db.update(storedFiles).set({ storageDriver: to.driver }).where(eq(storedFiles.id, row.id));
          report.copied += 1;
        }),
      );
    }
  }
}
