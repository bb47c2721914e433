/** Status of a study (worklist item). Transitions are in DESIGN.md §7. */
export const STUDY_STATUSES = [
  'ORDERED',
  'TO_READ',
  'ASSIGNED',
  'IN_REVIEW',
  'DRAFTED',
  'FINAL',
  'DELETED',
] as const;
export type TStudyStatus = (typeof STUDY_STATUSES)[number];

/** Filter tabs of the study list, in display order. ON_PROGRESS is shown as 'In Progress'. */
export const STATUS_GROUPS = ['ALL', 'ORDERED', 'ON_PROGRESS', 'COMPLETED'] as const;
export type TStatusGroup = (typeof STATUS_GROUPS)[number];

export const STATUS_GROUP_LABELS = {
  ALL: 'All',
  ORDERED: 'Ordered',
  ON_PROGRESS: 'In Progress',
  COMPLETED: 'Completed',
} as const satisfies Record<TStatusGroup, string>;

const GROUP_MEMBERS = {
  ORDERED: ['ORDERED'],
  ON_PROGRESS: ['TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED'],
  COMPLETED: ['FINAL'],
} as const satisfies Record<Exclude<TStatusGroup, 'ALL'>, readonly TStudyStatus[]>;

/**
 * Statuses listed under a filter tab. ALL is every status of the other tabs together: DELETED studies
 * belong to no tab and are never listed.
 */
export function statusesOfGroup(group: TStatusGroup): readonly TStudyStatus[] {
  if (group === 'ALL') {
    return [...GROUP_MEMBERS.ORDERED, ...GROUP_MEMBERS.ON_PROGRESS, ...GROUP_MEMBERS.COMPLETED];
  }
  return GROUP_MEMBERS[group];
}

/** The specific tab (never ALL) a status is listed under, or null for DELETED. */
export function groupOfStatus(status: TStudyStatus): Exclude<TStatusGroup, 'ALL'> | null {
  for (const group of ['ORDERED', 'ON_PROGRESS', 'COMPLETED'] as const) {
    if ((GROUP_MEMBERS[group] as readonly TStudyStatus[]).includes(status)) return group;
  }
  return null;
}

/**
 * Tailwind text colour of each status. The class names are written out in full so Tailwind's source
 * scan (which must include packages/domain/src) generates them.
 */
export const STATUS_TEXT_COLOURS = {
  ORDERED: 'text-sky-500',
  TO_READ: 'text-amber-500',
  ASSIGNED: 'text-violet-500',
  IN_REVIEW: 'text-orange-500',
  DRAFTED: 'text-blue-500',
  FINAL: 'text-emerald-500',
  DELETED: 'text-red-500',
} as const satisfies Record<TStudyStatus, string>;

/** Colour for any status outside STUDY_STATUSES. */
export const MUTED_STATUS_TEXT_COLOUR = 'text-gray-500';

export function isStudyStatus(value: unknown): value is TStudyStatus {
  return typeof value === 'string' && (STUDY_STATUSES as readonly string[]).includes(value);
}

/** Text colour class for a status as received (unknown or missing values are muted). */
export function statusTextColour(status: string | null | undefined): string {
  return isStudyStatus(status) ? STATUS_TEXT_COLOURS[status] : MUTED_STATUS_TEXT_COLOUR;
}
