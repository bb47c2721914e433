import { randomUUID } from 'node:crypto';
import { generateIdentifier, modalityGroupOf } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TDbOrTx, TTx } from '../../../db/client.ts';
import { facilities, patientDocuments, studies } from '../../../db/schema/index.ts';
import type { BlobStore } from '../../../files/blob-store.ts';
import { storeFile } from '../../../files/stored-files.ts';
import { AppError } from '../../../http/app-error.ts';
import type { TFormLimits, TUpload } from '../../../http/multipart.ts';
import { registerPatient } from '../../patients/commands/register-patient.ts';
import { requireReferringPhysician } from '../../referring-physicians/referring-physicians.queries.ts';
import { recordCreation } from '../../studies/commands/study-status.ts';
import type { TCreateOrderFields } from '@ris/domain';

/** A new DICOM UID under the UUID root: '2.25.' + the UUID read as one unsigned integer. */
export function generateDicomUid(): string {
  return `2.25.${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString()}`;
}

/** The facility, if it is one the caller works in (else 404 naming the field). */
export async function requireScopedFacility(db: TDbOrTx, scope: TScope, facilityId: string, field: string) {
  const [facility] = await db
    .select({ id: facilities.id })
    .from(facilities)
    .where(and(eq(facilities.id, facilityId), eq(facilities.organisationId, scope.organisationId)));
  if (!facility || !scope.facilityIds.includes(facility.id)) {
    throw new AppError('NOT_FOUND', `${field}: facility not found`, { field });
  }
}

/** The patient registered at the facility under this MRN, created when there is none. */
function findOrCreatePatient(tx: TTx, scope: TScope, input: TCreateOrderFields) {
  return registerPatient(tx, {
    organisationId: scope.organisationId,
    facilityId: input.facility_fk,
    identifier: input.patient_id ?? generateIdentifier(),
    name: input.patient_name,
    sex: input.patient_sex ?? null,
    birthDate: input.patient_birth_date ?? null,
  });
}

/**
 * The documents of an order form (create, activate): PDF, JPEG or PNG by content, at most 10 of
 * 20 MB each, 100 MB together.
 */
export const ORDER_FORM_LIMITS: TFormLimits = {
  noun: 'document',
  accept: ['application/pdf', 'image/jpeg', 'image/png'],
  acceptLabel: 'PDF, JPEG or PNG',
  maxBytes: 20 * 1024 * 1024,
  maxFiles: 10,
  maxTotalBytes: 100 * 1024 * 1024,
};

/** Stores the documents and attaches them to the study (inside the command's transaction). */
export async function attachDocuments(
  tx: TTx,
  blobs: BlobStore,
  input: { studyId: string; organisationId: string; userId: string; files: TUpload[] },
): Promise<void> {
  for (const file of input.files) {
    const stored = await storeFile(tx, blobs, {
      data: file.data,
      originalName: file.filename,
      organisationId: input.organisationId,
      createdBy: input.userId,
      accept: ORDER_FORM_LIMITS.accept,
      maxBytes: ORDER_FORM_LIMITS.maxBytes,
    });
    await tx.insert(patientDocuments).values({
      studyId: input.studyId,
      fileId: stored.id,
      filename: file.filename,
      uploadedBy: input.userId,
    });
  }
}

/**
 * POST /worklist/create/order: a new ORDERED item. The patient is found by (facility, patient_id)
 * — an existing record is used as it is — or created; the accession is a generated identifier.
 */
export async function createOrder(
  tx: TTx,
  blobs: BlobStore,
  input: { scope: TScope; fields: TCreateOrderFields; files: TUpload[] },
): Promise<string> {
  const { scope, fields } = input;
  const userId = scope.principal.userId;
  await requireScopedFacility(tx, scope, fields.facility_fk, 'facility_fk');
  const physician = fields.referring_physician_fk
    ? await requireReferringPhysician(tx, scope.organisationId, fields.referring_physician_fk)
    : null;
  const patient = await findOrCreatePatient(tx, scope, fields);
  const [study] = await tx
    .insert(studies)
    .values({
      organisationId: scope.organisationId,
      facilityId: fields.facility_fk,
      patientId: patient.id,
      accessionNumber: generateIdentifier(),
      patientName: patient.name,
      patientIdentifier: patient.patientIdentifier,
      patientSex: patient.sex,
      patientBirthDate: patient.birthDate,
      modality: fields.modality,
      modalityGroup: modalityGroupOf(fields.modality),
      studyDescription: fields.study ?? null,
      bodyPart: fields.body_part ?? null,
      studyDatetime: fields.datetime ? new Date(fields.datetime) : null,
      status: 'ORDERED',
      priorityTag: fields.priority_tag ?? null,
      referringPhysicianId: physician?.id ?? null,
      referringPhysicianName: physician?.name ?? fields.referring_physician_name ?? null,
      clinicalHistory: fields.clinical_history ?? null,
      createdBy: userId,
    })
    .returning({ id: studies.id });
  if (!study) throw new Error('study insert returned nothing');
  await recordCreation(tx, study.id, 'ORDERED', userId);
  await attachDocuments(tx, blobs, {
    studyId: study.id,
    organisationId: scope.organisationId,
    userId,
    files: input.files,
  });
  return study.id;
}
