import { modalityGroupOf } from '@ris/domain';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { patientDocuments, studies } from '../../../db/schema/index.ts';
import type { BlobStore } from '../../../files/blob-store.ts';
import { AppError } from '../../../http/app-error.ts';
import { authorizeWorklist } from '../../studies/study.policy.ts';
import { findVisibleStudy } from '../../studies/study.queries.ts';
import { attachDocuments, generateDicomUid } from './create-order.ts';
import type { TUpload } from '../../../http/multipart.ts';
import { applyTransition, recordCreation } from '../../studies/commands/study-status.ts';
import type { TActivateFields } from '@ris/domain';

/** The visible study, locked, or 404 naming worklist_id. */
async function loadLocked(tx: TTx, scope: TScope, id: string) {
  const row = await findVisibleStudy(tx, scope, id, { forUpdate: true });
  if (!row) throw new AppError('NOT_FOUND', 'worklist_id: worklist item not found', { field: 'worklist_id' });
  return row.study;
}

/** POST /worklist/activate: an ORDERED item becomes TO_READ with its study details and files. */
export async function activateStudy(
  tx: TTx,
  blobs: BlobStore,
  input: { scope: TScope; fields: TActivateFields; files: TUpload[] },
): Promise<string> {
  const { scope, fields } = input;
  const study = await loadLocked(tx, scope, fields.worklist_id);
  authorizeWorklist(scope.principal, 'activate', study, 'You may not activate studies');
  const studyUid = fields.study_uid ?? study.studyUid ?? generateDicomUid();
  if (study.duplicatedFromStudyId === null) {
    const [clash] = await tx
      .select({ id: studies.id })
      .from(studies)
      .where(
        and(
          eq(studies.organisationId, study.organisationId),
          eq(studies.studyUid, studyUid),
          isNull(studies.duplicatedFromStudyId),
          ne(studies.id, study.id),
        ),
      )
      .limit(1);
    if (clash)
      throw new AppError('CONFLICT', 'study_uid: another study already has this UID', { field: 'study_uid' });
  }
  const modality = fields.modality ?? study.modality;
  const result = await applyTransition(tx, {
    study,
    event: 'activate',
    byUserId: scope.principal.userId,
    set: {
      studyUid,
      modality,
      modalityGroup: modality ? modalityGroupOf(modality) : null,
      ...(fields.study !== undefined ? { studyDescription: fields.study } : {}),
      ...(fields.body_part !== undefined ? { bodyPart: fields.body_part } : {}),
      ...(fields.datetime !== undefined ? { studyDatetime: new Date(fields.datetime) } : {}),
      ...(fields.series_count !== undefined ? { seriesCount: fields.series_count } : {}),
      ...(fields.instance_count !== undefined ? { instanceCount: fields.instance_count } : {}),
    },
  });
  if (!result.ok) throw new AppError('CONFLICT', result.reason);
  await attachDocuments(tx, blobs, {
    studyId: study.id,
    organisationId: study.organisationId,
    userId: scope.principal.userId,
    files: input.files,
  });
  return study.id;
}

/**
 * POST /worklist/duplicate: a copy as a new ORDERED order (one DICOM study reported twice, e.g. chest
 * and abdomen). It shares study_uid and accession with its original (copies of a copy point at the
 * original), keeps patient, study details, priority and documents; never the assignment or report.
 */
export async function duplicateStudy(tx: TTx, input: { scope: TScope; worklistId: string }): Promise<string> {
  const { scope } = input;
  const source = await loadLocked(tx, scope, input.worklistId);
  authorizeWorklist(scope.principal, 'duplicate', source, 'You may not duplicate studies');
  if (source.status === 'DELETED') throw new AppError('CONFLICT', 'A deleted study cannot be duplicated');
  const [copy] = await tx
    .insert(studies)
    .values({
      organisationId: source.organisationId,
      facilityId: source.facilityId,
      patientId: source.patientId,
      studyUid: source.studyUid,
      accessionNumber: source.accessionNumber,
      duplicatedFromStudyId: source.duplicatedFromStudyId ?? source.id,
      patientName: source.patientName,
      patientIdentifier: source.patientIdentifier,
      patientSex: source.patientSex,
      patientBirthDate: source.patientBirthDate,
      modality: source.modality,
      modalityGroup: source.modalityGroup,
      studyDescription: source.studyDescription,
      bodyPart: source.bodyPart,
      studyDatetime: source.studyDatetime,
      seriesCount: source.seriesCount,
      instanceCount: source.instanceCount,
      status: 'ORDERED',
      priorityTag: source.priorityTag,
      referringPhysicianId: source.referringPhysicianId,
      referringPhysicianName: source.referringPhysicianName,
      clinicalHistory: source.clinicalHistory,
      createdBy: scope.principal.userId,
    })
    .returning({ id: studies.id });
  if (!copy) throw new Error('study insert returned nothing');
  await recordCreation(tx, copy.id, 'ORDERED', scope.principal.userId, `Duplicated from ${source.id}`);
  const documents = await tx.select().from(patientDocuments).where(eq(patientDocuments.studyId, source.id));
  if (documents.length > 0) {
    await tx.insert(patientDocuments).values(
      documents.map((document) => ({
        studyId: copy.id,
        fileId: document.fileId,
        filename: document.filename,
        uploadedBy: document.uploadedBy,
      })),
    );
  }
  return copy.id;
}
