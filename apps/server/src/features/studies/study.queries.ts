import type { TWorklistItemFacts } from '@ris/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { deletedStudyHidden, visibleStudies } from '../../access/studies-scope.ts';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { facilities, patientDocuments, storedFiles, studies, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import {
  presentPatientDocument,
  presentWorklistItem,
  worklistItemColumns,
  type TPatientDocumentWire,
  type TWorklistRow,
} from './study.presenter.ts';

/** A select of worklist rows; callers add WHERE (always visibleStudies), ORDER BY and LIMIT. */
export function selectWorklistRows(db: TDbOrTx) {
  return db
    .select(worklistItemColumns)
    .from(studies)
    .innerJoin(facilities, eq(facilities.id, studies.facilityId))
    .leftJoin(users, eq(users.id, studies.lastAssignedUserId));
}

/**
 * One worklist item the caller may see, or null (→ 404). `forUpdate` locks the study row until the
 * transaction ends, so two concurrent commands on the same item apply one after the other.
 */
export async function findVisibleStudy(
  db: TDbOrTx,
  scope: TScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TWorklistRow | null> {
  const query = selectWorklistRows(db)
    .where(and(eq(studies.id, id), visibleStudies(scope)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: studies }) : await query;
  return row ?? null;
}

/**
 * The item the caller may see, else 404: outside their scope, or deleted and they are not an admin
 * (deletedStudyHidden). `forUpdate` as findVisibleStudy's.
 */
export async function requireVisibleItem(
  db: TDbOrTx,
  scope: TScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TWorklistRow> {
  const row = await findVisibleStudy(db, scope, id, options);
  if (!row || deletedStudyHidden(scope.principal, row.study)) throw AppError.notFound('Worklist item');
  return row;
}

/** The patient documents of many studies in one query. */
export async function loadPatientDocuments(
  db: TDbOrTx,
  studyIds: string[],
): Promise<Map<string, TPatientDocumentWire[]>> {
  const byStudy = new Map<string, TPatientDocumentWire[]>(studyIds.map((id) => [id, []]));
  if (studyIds.length === 0) return byStudy;
  const rows = await db
    .select({
      studyId: patientDocuments.studyId,
      id: patientDocuments.id,
      filename: patientDocuments.filename,
      mediaType: storedFiles.mediaType,
      sizeBytes: storedFiles.sizeBytes,
      createdAt: patientDocuments.createdAt,
    })
    .from(patientDocuments)
    .innerJoin(storedFiles, eq(storedFiles.id, patientDocuments.fileId))
    .where(inArray(patientDocuments.studyId, studyIds))
    .orderBy(asc(patientDocuments.createdAt));
  for (const row of rows) byStudy.get(row.studyId)?.push(presentPatientDocument(row));
  return byStudy;
}

/** Rows → wire items, loading their documents in one query. */
export async function presentWorklistRows(db: TDbOrTx, rows: TWorklistRow[]): Promise<TWorklistItemFacts[]> {
  const documents = await loadPatientDocuments(
    db,
    rows.map((row) => row.study.id),
  );
  return rows.map((row) => presentWorklistItem(row, documents.get(row.study.id) ?? []));
}
