// Turnaround targets (issue 16): how long a study may take from arrival (created_at) to FINAL, per
// priority tag, and the one rule that says when an item is due and overdue. The server (home summary,
// breach notifications) and the web (the worklist's clock badge) both use these functions.
import { z } from 'zod';
import { PRIORITY_TAGS, ZPriorityTag, type TPriorityTag } from '../studies/priority-tags.ts';
import type { TStudyStatus } from '../studies/statuses.ts';

/** Shortest and longest target accepted: one minute … 30 days. */
export const MIN_TURNAROUND_MINUTES = 1;
export const MAX_TURNAROUND_MINUTES = 30 * 24 * 60;

const HOUR = 60;
const DAY = 24 * HOUR;

/** The targets of an organisation that never set any (EMERGENCY 1 h, URGENT 4 h, MLC 6 h, else 24 h). */
export const DEFAULT_TURNAROUND_TARGETS = Object.freeze({
  default_minutes: DAY,
  per_priority: Object.freeze({
    EMERGENCY: HOUR,
    URGENT: 4 * HOUR,
    MLC: 6 * HOUR,
    ROUTINE: DAY,
    FOLLOW_UP: DAY,
    POST_SURGICAL: DAY,
    ONCO: DAY,
    COMPLEX: DAY,
    COMPARATIVE: DAY,
  }),
}) satisfies TTurnaroundTargets;

/**
 * Priority order of the home lists (most pressing first); untagged studies come after all of these.
 * Every PRIORITY_TAGS value appears once.
 */
export const PRIORITY_URGENCY_ORDER = [
  'EMERGENCY',
  'URGENT',
  'MLC',
  'ROUTINE',
  'FOLLOW_UP',
  'POST_SURGICAL',
  'ONCO',
  'COMPLEX',
  'COMPARATIVE',
] as const satisfies readonly TPriorityTag[];

/** Position of a tag in PRIORITY_URGENCY_ORDER; untagged (null) after every tag. */
export function priorityUrgencyRank(tag: TPriorityTag | null): number {
  if (tag === null) return PRIORITY_URGENCY_ORDER.length;
  return (PRIORITY_URGENCY_ORDER as readonly TPriorityTag[]).indexOf(tag);
}

export const ZTurnaroundMinutes = z
  .number()
  .int('must be a whole number of minutes')
  .min(MIN_TURNAROUND_MINUTES, `must be at least ${MIN_TURNAROUND_MINUTES} minute`)
  .max(MAX_TURNAROUND_MINUTES, `must be at most ${MAX_TURNAROUND_MINUTES} minutes (30 days)`);

/** An organisation's targets, complete: minutes for untagged studies and for every priority tag. */
export const ZTurnaroundTargets = z.object({
  /** Target for a study without a priority tag. */
  default_minutes: ZTurnaroundMinutes,
  per_priority: z.object(
    Object.fromEntries(PRIORITY_TAGS.map((tag) => [tag, ZTurnaroundMinutes])) as Record<
      TPriorityTag,
      typeof ZTurnaroundMinutes
    >,
  ),
});
export type TTurnaroundTargets = z.infer<typeof ZTurnaroundTargets>;

/**
 * PUT /organisation/turnaround-targets. A tag left out of per_priority keeps its default; unknown
 * tags are a 400 naming the field.
 */
export const ZUpdateTurnaroundTargetsBody = z.object({
  default_minutes: ZTurnaroundMinutes,
  per_priority: z.partialRecord(ZPriorityTag, ZTurnaroundMinutes).default({}),
});
export type TUpdateTurnaroundTargetsBody = z.input<typeof ZUpdateTurnaroundTargetsBody>;

/** GET/PUT /organisation/turnaround-targets: the targets in effect, and whether they are the defaults. */
export const ZTurnaroundTargetsResponse = z.object({
  targets: ZTurnaroundTargets,
  /** True while the organisation has not set its own targets. */
  is_default: z.boolean(),
});
export type TTurnaroundTargetsResponse = z.infer<typeof ZTurnaroundTargetsResponse>;

/**
 * Complete targets from stored or submitted ones: every tag left out takes its default. A stored
 * value that does not parse (null, or a document from an older shape) reads as the defaults.
 */
export function resolveTurnaroundTargets(stored: unknown): TTurnaroundTargets {
  const parsed = ZUpdateTurnaroundTargetsBody.safeParse(stored);
  if (!parsed.success) {
    return { ...DEFAULT_TURNAROUND_TARGETS, per_priority: { ...DEFAULT_TURNAROUND_TARGETS.per_priority } };
  }
  return {
    default_minutes: parsed.data.default_minutes,
    per_priority: { ...DEFAULT_TURNAROUND_TARGETS.per_priority, ...parsed.data.per_priority },
  };
}

/** Minutes allowed for a study with this priority tag (untagged: default_minutes). */
export function turnaroundTargetMinutes(
  priorityTag: TPriorityTag | null,
  targets: TTurnaroundTargets,
): number {
  return priorityTag === null ? targets.default_minutes : targets.per_priority[priorityTag];
}

/** When a study that arrived at createdAt is due: arrival + its priority's target. */
export function turnaroundDueAt(
  createdAt: Date | string,
  priorityTag: TPriorityTag | null,
  targets: TTurnaroundTargets,
): Date {
  const arrival = typeof createdAt === 'string' ? new Date(createdAt) : createdAt;
  return new Date(arrival.getTime() + turnaroundTargetMinutes(priorityTag, targets) * 60_000);
}

/** Statuses that are done with: a FINAL or DELETED study is never overdue. */
const SETTLED_STATUSES: readonly TStudyStatus[] = ['FINAL', 'DELETED'];

/** The facts isOverdue reads (a worklist item, a home item). */
export type TTurnaroundItem = {
  created_at: Date | string;
  priority_tag: TPriorityTag | null;
  status: TStudyStatus;
};

/** An item is overdue when it is not FINAL or DELETED and now is past its due time. */
export function isOverdue(item: TTurnaroundItem, targets: TTurnaroundTargets, now: Date): boolean {
  if (SETTLED_STATUSES.includes(item.status)) return false;
  return now.getTime() > turnaroundDueAt(item.created_at, item.priority_tag, targets).getTime();
}
