import { asc, eq } from 'drizzle-orm';
import type { TStatusHistory } from '@ris/domain';
import type { TDbOrTx } from '../../../db/client.ts';
import { studyStatusHistory, users } from '../../../db/schema/index.ts';

/** The status history of a study the caller has already been shown to see, oldest first. */
export async function statusHistory(db: TDbOrTx, studyId: string): Promise<TStatusHistory> {
  const rows = await db
    .select({ entry: studyStatusHistory, displayName: users.displayName })
    .from(studyStatusHistory)
    .leftJoin(users, eq(users.id, studyStatusHistory.changedBy))
    .where(eq(studyStatusHistory.studyId, studyId))
    .orderBy(asc(studyStatusHistory.createdAt), asc(studyStatusHistory.id));
  return {
    worklist_id: studyId,
    history: rows.map(({ entry, displayName }) => ({
      id: entry.id,
      from_status: entry.fromStatus,
      to_status: entry.toStatus,
      by_user_fk: entry.changedBy,
      by_user_display_name: displayName,
      comment: entry.comment,
      created_at: entry.createdAt.toISOString(),
    })),
  };
}
