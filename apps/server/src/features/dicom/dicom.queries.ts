// The studies the /dicom calls address by Study Instance UID, always through the worklist's scope.
import type { TStudyStatus } from '@ris/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { hideDeletedStudies, visibleStudies } from '../../access/studies-scope.ts';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { studies } from '../../db/schema/index.ts';

/** What the image calls need of a study row. */
export const imageStudyColumns = {
  id: studies.id,
  organisationId: studies.organisationId,
  facilityId: studies.facilityId,
  pacsArchiveId: studies.pacsArchiveId,
  archiveStudyKey: studies.archiveStudyKey,
  studyUid: studies.studyUid,
  status: studies.status,
  patientName: studies.patientName,
  patientIdentifier: studies.patientIdentifier,
  accessionNumber: studies.accessionNumber,
  studyDatetime: studies.studyDatetime,
};

export type TImageStudy = {
  id: string;
  organisationId: string;
  facilityId: string;
  pacsArchiveId: string | null;
  archiveStudyKey: string | null;
  studyUid: string | null;
  status: TStudyStatus;
  patientName: string;
  patientIdentifier: string;
  accessionNumber: string;
  studyDatetime: Date | null;
};

/**
 * The worklist item of this Study Instance UID the caller may see (a duplicated study shares its
 * original's UID: the one not deleted first, then the oldest), or null (→ 404). Deleted studies are
 * visible to admins only, as on the worklist.
 */
export async function findVisibleStudyByUid(
  db: TDbOrTx,
  scope: TScope,
  studyUid: string,
): Promise<TImageStudy | null> {
  const [row] = await db
    .select(imageStudyColumns)
    .from(studies)
    .where(and(eq(studies.studyUid, studyUid), visibleStudies(scope), hideDeletedStudies(scope.principal)))
    .orderBy(sql`(${studies.status} = 'DELETED')`, asc(studies.createdAt), asc(studies.id))
    .limit(1);
  return (row as TImageStudy | undefined) ?? null;
}

/** A study by id, unscoped: only for a signed link, whose user's scope is checked next. */
export async function loadImageStudy(db: TDbOrTx, id: string): Promise<TImageStudy | null> {
  const [row] = await db.select(imageStudyColumns).from(studies).where(eq(studies.id, id)).limit(1);
  return (row as TImageStudy | undefined) ?? null;
}

/**
 * Every worklist item of this UID in the caller's organisation and facilities (deleted ones too):
 * the items a delete from the archive marks. `forUpdate` locks them until the transaction ends.
 */
export async function findStudiesByUid(
  db: TDbOrTx,
  scope: TScope,
  studyUid: string,
  options: { forUpdate?: boolean } = {},
): Promise<TImageStudy[]> {
  const query = db
    .select(imageStudyColumns)
    .from(studies)
    .where(and(eq(studies.studyUid, studyUid), visibleStudies(scope)))
    .orderBy(asc(studies.createdAt), asc(studies.id));
  return (options.forUpdate ? await query.for('update') : await query) as TImageStudy[];
}
