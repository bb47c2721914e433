import type { TPriorityTag } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { studies } from '../../../db/schema/index.ts';
import { canWorklist } from '../../studies/study.policy.ts';
import { lockVisibleStudies, type TBulkResult } from './bulk.ts';

/**
 * PUT /worklist/assign/priority-tag (a tag) and /worklist/unassign/priority-tag (null). FINAL and
 * DELETED items, and items the caller may not change, are skipped with the reason.
 */
export async function setPriorityTag(
  tx: TTx,
  input: { scope: TScope; worklistIds: string[]; priorityTag: TPriorityTag | null },
): Promise<TBulkResult> {
  const { scope } = input;
  const rows = await lockVisibleStudies(tx, scope, input.worklistIds);
  const result: TBulkResult = { updatedIds: [], skipped: [] };
  for (const study of rows) {
    if (!canWorklist(scope.principal, 'set-priority', study)) {
      result.skipped.push({ id: study.id, reason: 'You may not change the priority of this study' });
    } else if (study.status === 'FINAL' || study.status === 'DELETED') {
      result.skipped.push({
        id: study.id,
        reason: `The study is ${study.status.toLowerCase()} and cannot change`,
      });
    } else {
      await tx.update(studies).set({ priorityTag: input.priorityTag }).where(eq(studies.id, study.id));
      result.updatedIds.push(study.id);
    }
  }
  return result;
}
