// DELETE /dicom/delete-study: the study leaves the archive, then every worklist item of its UID is
// marked DELETED in one transaction through the study state machine (history rows; the route
// publishes worklist.item.deleted after commit). Archive first: when the archive cannot delete, the
// database is left as it was; when the database step fails after the archive deleted, the next sync
// from the archive marks the study as deleted there (archive_deleted_at).
import type { FastifyInstance } from 'fastify';
import type { TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { studies } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import {
  archiveFetch,
  ArchiveError,
  type TArchiveConnection,
} from '../../../integrations/pacs/archive-client.ts';
import { applyTransition } from '../../studies/commands/study-status.ts';
import { canWorklist } from '../../studies/study.policy.ts';
import { eq } from 'drizzle-orm';
import { findStudiesByUid, type TImageStudy } from '../dicom.queries.ts';
import { orthancStudyId, requireOrthanc, requireStudyArchive, withArchive } from '../study-archive.ts';

export type TArchiveDeletion = { connection: TArchiveConnection; orthancId: string | null };

/**
 * Checks what may be checked before the archive is touched: who (an organisation admin: the
 * worklist's 'delete'), which items (none FINAL: a reported study keeps its images), which archive
 * (Orthanc: plain DICOMweb has no standard delete).
 */
export function authorizeArchiveDelete(scope: TScope, items: readonly TImageStudy[]): void {
  if (!canWorklist(scope.principal, 'delete')) {
    throw new AppError(
      'FORBIDDEN',
      'Only an administrator of the organisation may delete a study from the archive',
    );
  }
  if (items.some((item) => item.status === 'FINAL')) {
    throw new AppError(
      'CONFLICT',
      'This study has a final report: its images stay in the archive. Only studies not yet final can be deleted.',
    );
  }
}

/** Deletes the study in its Orthanc archive (a study Orthanc no longer holds counts as deleted). */
export async function deleteInArchive(app: FastifyInstance, study: TImageStudy): Promise<TArchiveDeletion> {
  const connection = await requireStudyArchive(app, study);
  requireOrthanc(connection, 'Deleting a study from the archive');
  return withArchive(connection, async () => {
    const orthancId = await orthancStudyId(connection, study);
    if (!orthancId) return { connection, orthancId: null };
    const response = await archiveFetch(connection, {
      root: 'orthanc',
      path: `/studies/${encodeURIComponent(orthancId)}`,
      method: 'DELETE',
    });
    await response.body?.cancel();
    if (!response.ok && response.status !== 404) {
      throw new ArchiveError(
        'status',
        `${connection.name}: DELETE /studies answered ${response.status}`,
        response.status,
      );
    }
    return { connection, orthancId };
  });
}

/**
 * Marks every item of the UID (in the caller's scope, locked) DELETED with its history row and the
 * archive's deletion time; items already DELETED only get archive_deleted_at. Returns the ids.
 */
export async function markStudyDeleted(
  tx: TTx,
  input: { scope: TScope; studyUid: string; at: Date },
): Promise<string[]> {
  const { scope, studyUid, at } = input;
  const items = await findStudiesByUid(tx, scope, studyUid, { forUpdate: true });
  // The items may have changed while the archive worked: check again under the lock.
  authorizeArchiveDelete(scope, items);
  const userId = scope.principal.userId;
  for (const item of items) {
    if (item.status === 'DELETED') {
      await tx.update(studies).set({ archiveDeletedAt: at }).where(eq(studies.id, item.id));
      continue;
    }
    const result = await applyTransition(tx, {
      study: { id: item.id, status: item.status },
      event: 'delete',
      byUserId: userId,
      set: { deletedAt: at, deletedBy: userId, archiveDeletedAt: at },
      comment: 'Deleted from the image archive',
    });
    if (!result.ok) throw new AppError('CONFLICT', result.reason);
  }
  return items.map((item) => item.id);
}
