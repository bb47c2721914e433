// What a caller may do with a report right now ('edit', 'read' or 'none'): the report policy of the
// REST API (reportAccessFor), asked about the report as the caller's scope sees it. The two doors
// that keep a connection open use it: collaboration (who may open a report's document, and how) and
// realtime (which sockets receive what is meant for a report's editors).
import { and, eq } from 'drizzle-orm';
import { loadScope } from '../../access/scope.ts';
import { visibleStudies } from '../../access/studies-scope.ts';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TDb } from '../../db/client.ts';
import { reports, studies } from '../../db/schema/index.ts';
import { reportAccessFor, type TReportAccess } from './report.policy.ts';
import { AppError } from '../../http/app-error.ts';

export type TReportGrant = {
  access: TReportAccess;
  reportId: string;
  studyId: string;
  organisationId: string;
};

/**
 * The caller's access to a report: 'none' when the report does not exist or its study is outside the
 * caller's scope (the REST API's 404), else what the report policy says ('edit' only while the
 * report may still change; a COMPLETED report is 'read' for everyone).
 */
export async function reportGrantFor(
  db: TDb,
  principal: TPrincipal,
  reportId: string,
): Promise<TReportGrant> {
  const none: TReportGrant = { access: 'none', reportId, studyId: '', organisationId: '' };
  let scope;
  try {
    scope = await loadScope(db, principal);
  } catch (error) {
    // A user without an organisation or role sees no report at all.
    if (error instanceof AppError && error.status < 500) return none;
    throw error;
  }
  const [row] = await db
    .select({
      reportStatus: reports.status,
      studyId: studies.id,
      organisationId: studies.organisationId,
      status: studies.status,
      lastAssignedUserId: studies.lastAssignedUserId,
      collaborationEnabled: studies.collaborationEnabled,
    })
    .from(reports)
    .innerJoin(studies, eq(studies.id, reports.studyId))
    .where(and(eq(reports.id, reportId), visibleStudies(scope)))
    .limit(1);
  if (!row) return none;
  return {
    access: reportAccessFor(scope, row, row.reportStatus),
    reportId,
    studyId: row.studyId,
    organisationId: row.organisationId,
  };
}
