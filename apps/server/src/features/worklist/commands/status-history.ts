import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ZStudyStatus, ZUuid } from '@ris/domain';
import type { TDbOrTx } from '../../../db/client.ts';
import { studyStatusHistory, users } from '../../../db/schema/index.ts';

/** One entry of GET /worklist/statuses/{worklist_id}: from, to, who, when. */
export const ZStatusHistoryEntry = z.object({
  id: ZUuid,
  from_status: ZStudyStatus.nullable(),
  to_status: ZStudyStatus,
  /** Who made the change; null when the system did (PACS import, a job). */
  by_user_fk: ZUuid.nullable(),
  by_user_display_name: z.string().nullable(),
  comment: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export const ZStatusHistory = z.object({ worklist_id: ZUuid, history: z.array(ZStatusHistoryEntry) });
export type TStatusHistory = z.infer<typeof ZStatusHistory>;

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
