// The home dashboard (issue 16): GET /home/summary answers one object whose sections depend on the
// caller's role. A section that is absent is not for this caller (never "empty"); an empty list is
// `{ items: [], total: 0 }`.
import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { ZModality } from '../studies/modalities.ts';
import { ZPriorityTag } from '../studies/priority-tags.ts';
import { ZStudyStatus } from '../studies/status.schemas.ts';
import { ZTurnaroundTargets } from './turnaround.ts';

/** Most items a home list carries; `total` says how many there are in all. */
export const HOME_LIST_LIMIT = 20;

const ZDateTime = z.iso.datetime({ offset: true });
const ZCount = z.number().int().nonnegative();

/** GET /home/summary. */
export const ZHomeSummaryQuery = z.object({
  /** IANA time zone whose midnight starts "today" (finals today, turnaround today); default UTC. */
  time_zone: z.string().min(1).max(64).default('UTC'),
});
export type THomeSummaryQuery = z.infer<typeof ZHomeSummaryQuery>;

/**
 * A study on a home list. Field names follow the worklist item where they mean the same
 * (accession_number, patient_name, modality_group, status, priority_tag, created_at).
 */
export const ZHomeStudyItem = z.object({
  /** The worklist item (study): its reporting screen is /worklist/{id}. */
  id: ZUuid,
  patient_name: z.string(),
  /** The patient's MRN (the worklist's patient_id column). */
  patient_identifier: z.string(),
  accession_number: z.string(),
  study_description: z.string().nullable(),
  modality_group: ZModality.nullable(),
  facility_id: ZUuid,
  facility_name: z.string(),
  status: ZStudyStatus,
  priority_tag: ZPriorityTag.nullable(),
  /** Arrival of the study: turnaround runs from here. */
  created_at: ZDateTime,
  /** Whole minutes from created_at to the server's now (to finalized_at for a FINAL study). */
  elapsed_minutes: ZCount,
  /** created_at + the priority's target (turnaroundDueAt). */
  due_at: ZDateTime,
  /** isOverdue at the server's now (never for FINAL or DELETED). */
  overdue: z.boolean(),
  assignee_id: ZUuid.nullable(),
  assignee_display_name: z.string().nullable(),
});
export type THomeStudyItem = z.infer<typeof ZHomeStudyItem>;

/** A study on a home list through its report (drafts, returned, submitted, recent finals). */
export const ZHomeReportItem = ZHomeStudyItem.extend({
  report_id: ZUuid,
  /** Last change of the report. */
  report_updated_at: ZDateTime,
  /** When the study became FINAL; null before. */
  finalized_at: ZDateTime.nullable(),
  /** The comment of the latest review hand-off (returned to draft, submitted), if any. */
  comment: z.string().nullable(),
});
export type THomeReportItem = z.infer<typeof ZHomeReportItem>;

/** At most HOME_LIST_LIMIT items, and how many there are. */
export function homeListSchema<TItem extends z.ZodType>(item: TItem) {
  return z.object({ items: z.array(item).max(HOME_LIST_LIMIT), total: ZCount });
}
export const ZHomeStudyList = homeListSchema(ZHomeStudyItem);
export type THomeStudyList = z.infer<typeof ZHomeStudyList>;
export const ZHomeReportList = homeListSchema(ZHomeReportItem);
export type THomeReportList = z.infer<typeof ZHomeReportList>;

/** Statuses counted as waiting (every status before FINAL, DELETED excluded). */
export const HOME_WAITING_STATUSES = ['ORDERED', 'TO_READ', 'ASSIGNED', 'DRAFTED', 'IN_REVIEW'] as const;

/** Studies of one facility in one waiting status (pairs with no study are left out). */
export const ZHomeWaitingCount = z.object({
  facility_id: ZUuid,
  facility_name: z.string(),
  status: z.enum(HOME_WAITING_STATUSES),
  count: ZCount,
});
export type THomeWaitingCount = z.infer<typeof ZHomeWaitingCount>;

/** TO_READ studies nobody is assigned to, per priority tag (null: untagged); zero counts left out. */
export const ZHomePriorityCount = z.object({ priority_tag: ZPriorityTag.nullable(), count: ZCount });
export type THomePriorityCount = z.infer<typeof ZHomePriorityCount>;

/** One radiologist's load within the caller's facilities. */
export const ZHomeWorkload = z.object({
  user_id: ZUuid,
  display_name: z.string(),
  /** Assigned, report not started (ASSIGNED). */
  assigned: ZCount,
  /** Report under way (DRAFTED or IN_REVIEW). */
  in_progress: ZCount,
  /** Studies of theirs that became FINAL since today's midnight (time_zone). */
  finals_today: ZCount,
});
export type THomeWorkload = z.infer<typeof ZHomeWorkload>;

/**
 * Turnaround (arrival created_at → FINAL) of the studies finalised in a period, per priority tag
 * (null: untagged). Minutes are fractional (percentile_cont); tags with no final are left out.
 */
export const ZHomeTurnaroundRow = z.object({
  priority_tag: ZPriorityTag.nullable(),
  count: ZCount,
  median_minutes: z.number().nonnegative(),
  p90_minutes: z.number().nonnegative(),
  /** The target of this priority, for comparison. */
  target_minutes: z.number().int().positive(),
});
export type THomeTurnaroundRow = z.infer<typeof ZHomeTurnaroundRow>;

export const ZHomeTurnaround = z.object({
  /** Finalised since today's midnight in time_zone. */
  today: z.array(ZHomeTurnaroundRow),
  /** Finalised in the last 7 × 24 hours. */
  last_7_days: z.array(ZHomeTurnaroundRow),
});
export type THomeTurnaround = z.infer<typeof ZHomeTurnaround>;

/** GET /home/summary. Sections by role (absent = not for this caller). */
export const ZHomeSummary = z.object({
  /** The server's now: elapsed_minutes and overdue were computed at this instant. */
  generated_at: ZDateTime,
  time_zone: z.string(),
  /** The organisation's targets in effect (defaults when it set none), for the clock badges. */
  turnaround_targets: ZTurnaroundTargets,

  // RADIOLOGIST (and reporter)
  /** Studies assigned to me, not FINAL: by priority (PRIORITY_URGENCY_ORDER, untagged last), oldest first. */
  my_queue: ZHomeStudyList.optional(),
  /** Studies assigned to me whose report I am drafting (DRAFTED), oldest change first. */
  my_drafts: ZHomeReportList.optional(),
  /**
   * DRAFTED studies assigned to me whose latest change was a return from review (IN_REVIEW → DRAFTED)
   * by someone else, with its comment; newest return first.
   */
  returned_to_me: ZHomeReportList.optional(),
  /** My studies finalised since today's midnight (time_zone). */
  my_finals_today: ZCount.optional(),
  /** Median minutes created_at → FINAL of my studies finalised in the last 7 days; null when none. */
  my_median_turnaround_week_minutes: z.number().nonnegative().nullable().optional(),

  // TRANSCRIPTIONIST
  /** Studies in my facilities open for typing (collaboration on, ASSIGNED or DRAFTED), oldest first. */
  typing_queue: ZHomeStudyList.optional(),
  /** Reports I submitted for review that are still IN_REVIEW, newest first. */
  submitted_for_review: ZHomeReportList.optional(),

  // ADMIN (every facility of the organisation) and FACILITY_ADMIN (their facility)
  waiting: z.array(ZHomeWaitingCount).optional(),
  unassigned_by_priority: z.array(ZHomePriorityCount).optional(),
  /** Radiologists with any assigned, in-progress or finalised-today study, by name. */
  workload: z.array(ZHomeWorkload).optional(),
  turnaround: ZHomeTurnaround.optional(),
  /** Overdue studies (not FINAL, past due_at), most overdue first. */
  breaches: ZHomeStudyList.optional(),

  // REFERRING_PHYSICIAN
  /** My patients' final reports, newest first. */
  recent_finals: ZHomeReportList.optional(),
});
export type THomeSummary = z.infer<typeof ZHomeSummary>;
