import type { TBulkResult, TToastKind } from '@ris/domain';

export function plural(count: number): string {
  return `${count} ${count === 1 ? 'study' : 'studies'}`;
}

/** The toast of a bulk action: what changed, and when some items were left alone, how many and why. */
export type TBulkOutcome = { kind: Extract<TToastKind, 'success' | 'warning'>; message: string };

/**
 * 'Assigned 3 studies' (success) or, when the server skipped some, a warning that says why, each
 * reason once with its count: 'Assigned 0 studies. 2 skipped: The radiologist does not work for this
 * facility (2)'.
 */
export function bulkOutcome(verb: string, result: TBulkResult): TBulkOutcome {
  const done = `${verb} ${plural(result.updated_worklists.length)}`;
  if (result.skipped.length === 0) return { kind: 'success', message: done };
  const reasons = new Map<string, number>();
  for (const { reason } of result.skipped) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  const why = [...reasons].map(([reason, count]) => `${reason} (${count})`).join('; ');
  return { kind: 'warning', message: `${done}. ${result.skipped.length} skipped: ${why}` };
}
