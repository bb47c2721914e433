// Home summaries for the web's unit tests: items built relative to now, so elapsed times and the
// overdue clocks read the same on any day.
import {
  DEFAULT_TURNAROUND_TARGETS,
  type THomeReportItem,
  type THomeStudyItem,
  type THomeSummary,
} from '@ris/domain';

export const FACILITY_ID = '00000000-0000-4000-8000-0000000000f1';
export const FACILITY_B_ID = '00000000-0000-4000-8000-0000000000f2';

export const itemId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

export function homeStudy(n: number, patch: Partial<THomeStudyItem> = {}): THomeStudyItem {
  return {
    id: itemId(n),
    patient_name: `Patient ${n}`,
    patient_identifier: `MRN${n}`,
    accession_number: `ACC${n}`,
    study_description: 'CT Head',
    modality_group: 'CT',
    facility_id: FACILITY_ID,
    facility_name: 'City General Hospital',
    status: 'ASSIGNED',
    priority_tag: null,
    created_at: minutesAgo(30),
    elapsed_minutes: 30,
    due_at: minutesAgo(30 - 24 * 60),
    overdue: false,
    assignee_id: null,
    assignee_display_name: null,
    ...patch,
  };
}

export function homeReport(n: number, patch: Partial<THomeReportItem> = {}): THomeReportItem {
  return {
    ...homeStudy(n),
    status: 'DRAFTED',
    report_id: itemId(1000 + n),
    report_updated_at: minutesAgo(10),
    finalized_at: null,
    comment: null,
    ...patch,
  };
}

export function summaryOf(patch: Partial<THomeSummary>): THomeSummary {
  return {
    generated_at: new Date(Date.now() - 1_000).toISOString(),
    time_zone: 'UTC',
    turnaround_targets: {
      ...DEFAULT_TURNAROUND_TARGETS,
      per_priority: { ...DEFAULT_TURNAROUND_TARGETS.per_priority },
    },
    ...patch,
  };
}
