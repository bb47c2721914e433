// Loading reports through the caller's scope: a report is visible exactly when its study is
// (visibleStudies), and every load returns the study facts the report policy needs.
import { and, eq } from 'drizzle-orm';
import { visibleStudies } from '../../access/studies-scope.ts';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { reports, studies } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { mayReadReport } from './report.policy.ts';

export type TReportRow = typeof reports.$inferSelect;
export type TStudyRow = typeof studies.$inferSelect;
export type TVisibleReport = { report: TReportRow; study: TStudyRow };

type TLoadOptions = {
  /** Lock the study row (FOR UPDATE) until the transaction ends: commands that change its status. */
  lockStudy?: boolean;
};

/** The report with this id, if the caller sees its study; null otherwise (→ 404). */
export async function findVisibleReport(
  db: TDbOrTx,
  scope: TScope,
  reportId: string,
  options: TLoadOptions = {},
): Promise<TVisibleReport | null> {
  const query = db
    .select({ report: reports, study: studies })
    .from(reports)
    .innerJoin(studies, eq(studies.id, reports.studyId))
    .where(and(eq(reports.id, reportId), visibleStudies(scope)))
    .limit(1);
  const [row] = options.lockStudy ? await query.for('update', { of: studies }) : await query;
  return row ?? null;
}

/** The study (if visible) and its report (null when none was created yet). */
export async function findVisibleStudyReport(
  db: TDbOrTx,
  scope: TScope,
  studyId: string,
  options: TLoadOptions = {},
): Promise<{ study: TStudyRow; report: TReportRow | null } | null> {
  const query = db
    .select({ study: studies, report: reports })
    .from(studies)
    .leftJoin(reports, eq(reports.studyId, studies.id))
    .where(and(eq(studies.id, studyId), visibleStudies(scope)))
    .limit(1);
  const [row] = options.lockStudy ? await query.for('update', { of: studies }) : await query;
  return row ?? null;
}

/** A report the caller may read (404 for everything else: not visible, or not readable yet). */
export async function requireReadableReport(
  db: TDbOrTx,
  scope: TScope,
  reportId: string,
  options: TLoadOptions = {},
): Promise<TVisibleReport> {
  const row = await findVisibleReport(db, scope, reportId, options);
  if (!row || !mayReadReport(scope.principal, row.study)) throw AppError.notFound('Report');
  return row;
}
