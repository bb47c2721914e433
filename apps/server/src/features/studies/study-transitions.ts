// The study state machine of DESIGN.md §7, as pure data and one function. Commands ask it before
// changing a status; it never touches the database.
import type { TStudyStatus } from '@ris/domain';

/** Everything that moves a study from one status to another. */
export type TStudyEvent =
  'activate' | 'assign' | 'unassign' | 'save-report' | 'submit' | 'return-to-draft' | 'finalize' | 'delete';

type TTransition = { from: readonly TStudyStatus[]; to: TStudyStatus };

const NON_FINAL: readonly TStudyStatus[] = ['ORDERED', 'TO_READ', 'ASSIGNED', 'DRAFTED', 'IN_REVIEW'];

/** Allowed moves. The report events (save-report, submit, return-to-draft, finalize) come from features/reports. */
export const STUDY_TRANSITIONS = {
  activate: { from: ['ORDERED'], to: 'TO_READ' },
  assign: { from: ['TO_READ'], to: 'ASSIGNED' },
  unassign: { from: ['ASSIGNED', 'DRAFTED'], to: 'TO_READ' },
  'save-report': { from: ['ASSIGNED'], to: 'DRAFTED' },
  submit: { from: ['DRAFTED'], to: 'IN_REVIEW' },
  'return-to-draft': { from: ['IN_REVIEW'], to: 'DRAFTED' },
  finalize: { from: ['ASSIGNED', 'DRAFTED', 'IN_REVIEW'], to: 'FINAL' },
  delete: { from: NON_FINAL, to: 'DELETED' },
} as const satisfies Record<TStudyEvent, TTransition>;

/** Facts about the study that guards need (only unassign has one so far). */
export type TTransitionContext = { hasReportContent?: boolean };

export type TTransitionResult =
  { ok: true; from: TStudyStatus; to: TStudyStatus } | { ok: false; from: TStudyStatus; reason: string };

const label = (status: TStudyStatus) => status.replaceAll('_', ' ').toLowerCase();

/** Where `event` takes a study in `from`, or why it may not. */
export function transition(
  from: TStudyStatus,
  event: TStudyEvent,
  context: TTransitionContext = {},
): TTransitionResult {
  const rule: TTransition = STUDY_TRANSITIONS[event];
  if (!rule.from.includes(from)) {
    return { ok: false, from, reason: `The study is ${label(from)} and cannot be ${pastTense(event)}` };
  }
  if (event === 'unassign' && context.hasReportContent) {
    return { ok: false, from, reason: 'The study already has report content and cannot be unassigned' };
  }
  return { ok: true, from, to: rule.to };
}

function pastTense(event: TStudyEvent): string {
  switch (event) {
    case 'activate':
      return 'activated';
    case 'assign':
      return 'assigned';
    case 'unassign':
      return 'unassigned';
    case 'save-report':
      return 'drafted';
    case 'submit':
      return 'submitted for review';
    case 'return-to-draft':
      return 'returned to draft';
    case 'finalize':
      return 'finalized';
    case 'delete':
      return 'deleted';
  }
}
