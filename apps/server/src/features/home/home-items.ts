// The study rows of the home lists: one select list, one presenter (ZHomeStudyItem and
// ZHomeReportItem), with due_at and overdue from the domain's turnaround rule.
import {
  isOverdue,
  turnaroundDueAt,
  type TModality,
  type TPriorityTag,
  type THomeReportItem,
  type THomeStudyItem,
  type TStudyStatus,
  type TTurnaroundTargets,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';

/** A study row as the list queries select it (STUDY_COLUMNS), with the list's total. */
export type TStudyRow = {
  id: string;
  patient_name: string;
  patient_identifier: string;
  accession_number: string;
  study_description: string | null;
  modality_group: TModality | null;
  facility_id: string;
  facility_name: string;
  status: TStudyStatus;
  priority_tag: TPriorityTag | null;
  created_at: Date | string;
  assignee_id: string | null;
  assignee_display_name: string | null;
  total: number | string;
};

/** A study row with its report (REPORT_COLUMNS). */
export type TReportRow = TStudyRow & {
  report_id: string;
  report_updated_at: Date | string;
  finalized_at: Date | string | null;
  comment: string | null;
};

/** Select list of a study row; the query joins facilities `f` and users `u` (the assignee). */
export const STUDY_COLUMNS = sql`"studies"."id", "studies"."patient_name", "studies"."patient_identifier",
  "studies"."accession_number", "studies"."study_description", "studies"."modality_group",
  "studies"."facility_id", f."name" as facility_name, "studies"."status", "studies"."priority_tag",
  "studies"."created_at", "studies"."last_assigned_user_id" as assignee_id,
  u."display_name" as assignee_display_name, count(*) over () as total`;

/** The joins STUDY_COLUMNS reads. */
export const STUDY_JOINS = sql`join facilities f on f.id = "studies"."facility_id"
  left join users u on u.id = "studies"."last_assigned_user_id"`;

/** Select list of a report row: STUDY_COLUMNS and the report `r`, with `comment` from the query. */
export function reportColumns(comment: SQL): SQL {
  return sql`${STUDY_COLUMNS}, r."id" as report_id, r."updated_at" as report_updated_at,
    r."finalized_at", ${comment} as comment`;
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function presentStudy(row: TStudyRow, targets: TTurnaroundTargets, now: Date): THomeStudyItem {
  const createdAt = new Date(row.created_at);
  return {
    id: row.id,
    patient_name: row.patient_name,
    patient_identifier: row.patient_identifier,
    accession_number: row.accession_number,
    study_description: row.study_description,
    modality_group: row.modality_group,
    facility_id: row.facility_id,
    facility_name: row.facility_name,
    status: row.status,
    priority_tag: row.priority_tag,
    created_at: createdAt.toISOString(),
    elapsed_minutes: Math.max(0, Math.floor((now.getTime() - createdAt.getTime()) / 60_000)),
    due_at: turnaroundDueAt(createdAt, row.priority_tag, targets).toISOString(),
    overdue: isOverdue(
      { created_at: createdAt, priority_tag: row.priority_tag, status: row.status },
      targets,
      now,
    ),
    assignee_id: row.assignee_id,
    assignee_display_name: row.assignee_display_name,
  };
}

export function presentReport(row: TReportRow, targets: TTurnaroundTargets, now: Date): THomeReportItem {
  const finalizedAt = row.finalized_at === null ? null : new Date(row.finalized_at);
  const item = presentStudy(row, targets, row.status === 'FINAL' && finalizedAt ? finalizedAt : now);
  return {
    ...item,
    report_id: row.report_id,
    report_updated_at: iso(row.report_updated_at),
    finalized_at: finalizedAt?.toISOString() ?? null,
    comment: row.comment,
  };
}

/** Runs a list query (its rows carry `total`): at most `limit` items and the total. */
export async function readList<TRow extends TStudyRow, TItem>(
  db: TDbOrTx,
  query: SQL,
  present: (row: TRow) => TItem,
): Promise<{ items: TItem[]; total: number }> {
  const rows = await queryRows<TRow>(db, query);
  return { items: rows.map(present), total: rows[0] ? Number(rows[0].total) : 0 };
}
