import type { TWorklistItem } from '@ris/domain';
import { asc, eq, inArray } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import { facilities, patientDocuments, storedFiles, studies, users } from '../../db/schema/index.ts';

/** The columns a worklist item needs: the study plus two small joins (facility name, assignee name). */
export const worklistItemColumns = {
  study: studies,
  facilityName: facilities.name,
  assigneeName: users.displayName,
};

export type TWorklistRow = {
  study: typeof studies.$inferSelect;
  facilityName: string;
  assigneeName: string | null;
};

/** A select of worklist rows; callers add WHERE (always visibleStudies), ORDER BY and LIMIT. */
export function selectWorklistRows(db: TDbOrTx) {
  return db
    .select(worklistItemColumns)
    .from(studies)
    .innerJoin(facilities, eq(facilities.id, studies.facilityId))
    .leftJoin(users, eq(users.id, studies.lastAssignedUserId));
}

type TDocumentWire = TWorklistItem['patient_documents'][number];

/** The patient documents of many studies in one query. */
export async function loadPatientDocuments(
  db: TDbOrTx,
  studyIds: string[],
): Promise<Map<string, TDocumentWire[]>> {
  const byStudy = new Map<string, TDocumentWire[]>(studyIds.map((id) => [id, []]));
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
  for (const row of rows) {
    byStudy.get(row.studyId)?.push({
      id: row.id,
      filename: row.filename,
      media_type: row.mediaType,
      size_bytes: row.sizeBytes,
      created_at: row.createdAt.toISOString(),
    });
  }
  return byStudy;
}

export function presentWorklistItem(row: TWorklistRow, documents: TDocumentWire[]): TWorklistItem {
  const s = row.study;
  return {
    id: s.id,
    facility_fk: s.facilityId,
    facility: row.facilityName,
    study_uid: s.studyUid,
    accession_number: s.accessionNumber,
    patient_name: s.patientName,
    patient_id: s.patientIdentifier,
    patient_sex: s.patientSex,
    patient_birth_date: s.patientBirthDate,
    modality: s.modality,
    modality_group: s.modalityGroup,
    study: s.studyDescription,
    body_part: s.bodyPart,
    datetime: s.studyDatetime?.toISOString() ?? null,
    series_count: s.seriesCount,
    instance_count: s.instanceCount,
    status: s.status,
    priority_tag: s.priorityTag,
    last_assigned_user_fk: s.lastAssignedUserId,
    last_assigned_user_display_name: row.assigneeName,
    referring_physician_fk: s.referringPhysicianId,
    referring_physician: s.referringPhysicianName,
    clinical_history: s.clinicalHistory,
    collaboration_enabled: s.collaborationEnabled,
    patient_documents: documents,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

/** Rows → wire items, loading their documents in one query. */
export async function presentWorklistRows(db: TDbOrTx, rows: TWorklistRow[]): Promise<TWorklistItem[]> {
  const documents = await loadPatientDocuments(
    db,
    rows.map((row) => row.study.id),
  );
  return rows.map((row) => presentWorklistItem(row, documents.get(row.study.id) ?? []));
}
