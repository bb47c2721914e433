import { DRAFT_TOAST_DURATION_MS, type TToastKind, type TWorklistItemFacts } from '@ris/domain';

export interface TRealtimeToast {
  kind: TToastKind;
  message: string;
  duration?: number;
}

/**
 * The toast a transcriptionist gets on the worklist when an item changes (spec §4): the assigned
 * radiologist marked the report final, or draft (10 s), or collaboration was switched on or off for
 * the patient. Nothing when the item was not known before (no "before" to compare with).
 */
export function transcriptionistToast(
  previous: TWorklistItemFacts | undefined,
  next: TWorklistItemFacts,
): TRealtimeToast | null {
  if (!previous) return null;
  const who = next.last_assigned_user_display_name ?? 'The assigned radiologist';
  const patient = next.patient_name;
  if (previous.status !== next.status && next.status === 'FINAL') {
    return { kind: 'success', message: `${who} marked the report of ${patient} as final` };
  }
  if (previous.status !== next.status && next.status === 'DRAFTED') {
    return {
      kind: 'info',
      message: `${who} marked the report of ${patient} as draft`,
      duration: DRAFT_TOAST_DURATION_MS,
    };
  }
  if (previous.collaboration_enabled !== next.collaboration_enabled) {
    return {
      kind: 'info',
      message: `Collaboration ${next.collaboration_enabled ? 'enabled' : 'disabled'} for ${patient}`,
    };
  }
  return null;
}
