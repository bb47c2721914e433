import {
  HOME_WAITING_STATUSES,
  label,
  priorityUrgencyRank,
  type THomePriorityCount,
  type THomeTurnaroundRow,
  type THomeWaitingCount,
  type THomeWorkload,
  type TPriorityTag,
  priorityTagLabel,
} from '@ris/domain';
import type { TChartRow } from './chart-data.ts';

/**
 * The words of a priority tag on the home screen ("Follow Up"; an abbreviation such as MLC, the
 * medico-legal case, stays in capitals); a study without one is "Untagged".
 */
export function priorityText(tag: TPriorityTag | null): string {
  if (tag === null) return 'Untagged';
  return priorityTagLabel(tag);
}

/** Waiting studies per status over all the caller's facilities, in the statuses' order. */
export function waitingByStatus(waiting: readonly THomeWaitingCount[]): TChartRow[] {
  return HOME_WAITING_STATUSES.map((status) => ({
    label: label(status),
    values: {
      count: waiting.filter((row) => row.status === status).reduce((sum, row) => sum + row.count, 0),
    },
  }));
}

export interface TFacilityWaiting {
  facility_id: string;
  facility_name: string;
  counts: Readonly<Record<(typeof HOME_WAITING_STATUSES)[number], number>>;
  total: number;
}

/** Waiting studies of each facility per status, the busiest facility first (then by name). */
export function waitingByFacility(waiting: readonly THomeWaitingCount[]): TFacilityWaiting[] {
  const byFacility = new Map<string, TFacilityWaiting>();
  for (const row of waiting) {
    const current = byFacility.get(row.facility_id) ?? {
      facility_id: row.facility_id,
      facility_name: row.facility_name,
      counts: { ORDERED: 0, TO_READ: 0, ASSIGNED: 0, DRAFTED: 0, IN_REVIEW: 0 },
      total: 0,
    };
    byFacility.set(row.facility_id, {
      ...current,
      counts: { ...current.counts, [row.status]: current.counts[row.status] + row.count },
      total: current.total + row.count,
    });
  }
  return [...byFacility.values()].sort(
    (a, b) => b.total - a.total || a.facility_name.localeCompare(b.facility_name),
  );
}

/** Unassigned studies by priority, the most pressing first (untagged last). */
export function unassignedInOrder(counts: readonly THomePriorityCount[]): THomePriorityCount[] {
  return [...counts].sort(
    (a, b) => priorityUrgencyRank(a.priority_tag) - priorityUrgencyRank(b.priority_tag),
  );
}

/** One chart row per radiologist: assigned, in progress and finals today. */
export function workloadRows(workload: readonly THomeWorkload[]): TChartRow[] {
  return workload.map((row) => ({
    label: row.display_name,
    values: { assigned: row.assigned, in_progress: row.in_progress, finals_today: row.finals_today },
  }));
}

/** One chart row per priority: median, 90th percentile, target (minutes) and how many finals. */
export function turnaroundRows(rows: readonly THomeTurnaroundRow[]): TChartRow[] {
  return [...rows]
    .sort((a, b) => priorityUrgencyRank(a.priority_tag) - priorityUrgencyRank(b.priority_tag))
    .map((row) => ({
      label: priorityText(row.priority_tag),
      values: {
        median: row.median_minutes,
        p90: row.p90_minutes,
        target: row.target_minutes,
        count: row.count,
      },
    }));
}
