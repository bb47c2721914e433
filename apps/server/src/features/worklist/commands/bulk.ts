// Shared by the bulk commands: lock the caller's items in id order (two bulk commands touching the
// same items never deadlock, and the second sees the first's result), refuse unknown ids up front.
import { and, asc, inArray } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import { visibleStudies } from '../../../access/studies-scope.ts';
import type { TTx } from '../../../db/client.ts';
import { studies } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';

export type TLockedStudy = typeof studies.$inferSelect;
export type TSkipped = { id: string; reason: string };
export type TBulkResult = { updatedIds: string[]; skipped: TSkipped[] };

/**
 * The visible studies with these ids, locked FOR UPDATE in id order. Ids the caller cannot see
 * (another organisation, another facility, unknown) answer 404 naming them before anything changes.
 */
export async function lockVisibleStudies(
  tx: TTx,
  scope: TScope,
  ids: readonly string[],
): Promise<TLockedStudy[]> {
  const rows = await tx
    .select()
    .from(studies)
    .where(and(inArray(studies.id, [...ids]), visibleStudies(scope)))
    .orderBy(asc(studies.id))
    .for('update');
  const found = new Set(rows.map((row) => row.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError('NOT_FOUND', `worklist_ids: worklist items not found: ${missing.join(', ')}`, {
      field: 'worklist_ids',
      ids: missing,
    });
  }
  return rows;
}
