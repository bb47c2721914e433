// Removing recordings (DELETE by its author or an admin, and the retention job): the row and its
// stored file in one transaction, then the bytes (a blob left behind by a crash is never referenced).
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../../db/client.ts';
import { dictationRecordings, storedFiles } from '../../../db/schema/index.ts';
import type { BlobStore } from '../../../files/blob-store.ts';

export type TRemovedRecording = { id: string; reportId: string; organisationId: string };

/** Deletes the recordings the condition selects (at most `limit`), with their files. */
export async function removeRecordings(
  db: TDb,
  blobs: BlobStore,
  where: SQL,
  limit = 500,
): Promise<TRemovedRecording[]> {
  const { removed, keys } = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(dictationRecordings)
      .where(
        inArray(
          dictationRecordings.id,
          sql`(select id from dictation_recordings where ${where} limit ${limit} for update skip locked)`,
        ),
      )
      .returning({
        id: dictationRecordings.id,
        reportId: dictationRecordings.reportId,
        organisationId: dictationRecordings.organisationId,
        fileId: dictationRecordings.fileId,
      });
    const fileIds = rows.map((row) => row.fileId);
    const files =
      fileIds.length === 0
        ? []
        : await tx
            .delete(storedFiles)
            .where(inArray(storedFiles.id, fileIds))
            .returning({ key: storedFiles.storageKey });
    return {
      removed: rows.map(({ id, reportId, organisationId }) => ({ id, reportId, organisationId })),
      keys: files.map((file) => file.key),
    };
  });
  for (const key of keys) await blobs.delete(key).catch(() => undefined);
  return removed;
}
