import { and, eq } from 'drizzle-orm';
import { hideDeletedStudies, visibleStudies } from '../../access/studies-scope.ts';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { studies } from '../../db/schema/index.ts';

/**
 * Whether the caller may see a study with this Study Instance UID (a duplicated study shares its
 * original's UID, so any visible one counts). Deleted studies count for admins only, as on the
 * worklist.
 */
export async function isStudyUidVisible(db: TDbOrTx, scope: TScope, studyUid: string): Promise<boolean> {
  const rows = await db
    .select({ id: studies.id })
    .from(studies)
    .where(and(eq(studies.studyUid, studyUid), visibleStudies(scope), hideDeletedStudies(scope.principal)))
    .limit(1);
  return rows.length > 0;
}
