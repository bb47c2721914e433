// Every status change goes through here: ask the state machine, update the study, write the history
// row — all on the caller's transaction, so a change and its history commit together or not at all.
import type { TStudyStatus } from '@ris/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { reports, studies, studyStatusHistory } from '../../../db/schema/index.ts';
import { transition, type TStudyEvent, type TTransitionResult } from '../study-transitions.ts';

type TStudyUpdate = Partial<typeof studies.$inferInsert>;

export type TApplyTransitionInput = {
  study: { id: string; status: TStudyStatus };
  event: TStudyEvent;
  byUserId: string | null;
  /** Other columns changed with the status (assignee, deleted_at ...). */
  set?: TStudyUpdate;
  comment?: string;
};

/** Whether the study's report has any content (unassign is refused then). */
export async function hasReportContent(db: TDbOrTx, studyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.studyId, studyId), sql`(${reports.contentText} <> '' or ${reports.content} <> '')`))
    .limit(1);
  return !!row;
}

/** Applies `event` if the state machine allows it and records it; returns the decision either way. */
export async function applyTransition(db: TDbOrTx, input: TApplyTransitionInput): Promise<TTransitionResult> {
  const { study, event } = input;
  const context = event === 'unassign' ? { hasReportContent: await hasReportContent(db, study.id) } : {};
  const result = transition(study.status, event, context);
  if (!result.ok) return result;
  await db
    .update(studies)
    .set({ ...input.set, status: result.to })
    .where(eq(studies.id, study.id));
  await db.insert(studyStatusHistory).values({
    studyId: study.id,
    fromStatus: result.from,
    toStatus: result.to,
    changedBy: input.byUserId,
    comment: input.comment ?? null,
    // The statement's time, not the transaction's: two moves in one transaction (save, then submit)
    // keep their order in the history.
    createdAt: sql`clock_timestamp()`,
  });
  return result;
}

/** The first history entry of a new study (from nothing to its initial status). */
export async function recordCreation(
  db: TDbOrTx,
  studyId: string,
  status: TStudyStatus,
  byUserId: string | null,
  comment?: string,
): Promise<void> {
  await db
    .insert(studyStatusHistory)
    .values({ studyId, fromStatus: null, toStatus: status, changedBy: byUserId, comment: comment ?? null });
}
