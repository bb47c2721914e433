import { and, eq } from 'drizzle-orm';
import { visibleStudies } from '../../access/studies-scope.ts';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { studies } from '../../db/schema/index.ts';
import { selectWorklistRows, type TWorklistRow } from './worklist.presenter.ts';

/**
 * One worklist item the caller may see, or null (→ 404). `forUpdate` locks the study row until the
 * transaction ends, so two concurrent commands on the same item apply one after the other.
 */
export async function findVisibleStudy(
  db: TDbOrTx,
  scope: TScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TWorklistRow | null> {
  const query = selectWorklistRows(db)
    .where(and(eq(studies.id, id), visibleStudies(db, scope)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: studies }) : await query;
  return row ?? null;
}
