// Patient documents of a worklist item (requisitions, earlier reports): add, replace the set, read.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TDbOrTx, TTx } from '../../db/client.ts';
import { patientDocuments, storedFiles } from '../../db/schema/index.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { storeFile } from '../../files/stored-files.ts';
import { AppError } from '../../http/app-error.ts';
import type { TFormLimits, TUpload } from '../../http/multipart.ts';
import { canWorklist } from '../studies/study.policy.ts';
import type { TWorklistRow } from '../studies/study.presenter.ts';
import { requireVisibleItem } from '../studies/study.queries.ts';
import { MAX_PATIENT_DOCUMENT_BYTES } from '@ris/domain';

/** Patient documents: PDF or raster images by content, at most MAX_PATIENT_DOCUMENT_BYTES each. */
export const PATIENT_DOCUMENT_LIMITS: TFormLimits = {
  noun: 'document',
  accept: ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'],
  acceptLabel: 'PDF, JPEG, PNG or WebP',
  maxBytes: MAX_PATIENT_DOCUMENT_BYTES,
  maxFiles: 10,
  maxTotalBytes: 4 * MAX_PATIENT_DOCUMENT_BYTES,
};

type TStudy = TWorklistRow['study'];

/** Who changes an item's documents: the study policy's manage-documents (also its item's ability). */
export function mayManageDocuments(principal: TPrincipal, study: TStudy): boolean {
  return canWorklist(principal, 'manage-documents', study);
}

/** The visible item (deleted ones only to admins), else 404. */
export async function requireVisibleStudy(
  db: TDbOrTx,
  scope: TScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TStudy> {
  const row = await requireVisibleItem(db, scope, id, options);
  return row.study;
}

/** 404 outside the scope, 403 for callers who may not change the documents, 409 for deleted items. */
export async function requireDocumentManager(
  db: TDbOrTx,
  scope: TScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TStudy> {
  const study = await requireVisibleStudy(db, scope, id, options);
  if (!mayManageDocuments(scope.principal, study)) {
    throw new AppError('FORBIDDEN', 'You may not change the documents of this worklist item');
  }
  if (study.status === 'DELETED') throw new AppError('CONFLICT', 'A deleted worklist item cannot be changed');
  return study;
}

async function addDocuments(
  tx: TTx,
  blobs: BlobStore,
  scope: TScope,
  study: TStudy,
  files: readonly TUpload[],
): Promise<void> {
  for (const file of files) {
    const stored = await storeFile(tx, blobs, {
      data: file.data,
      originalName: file.filename,
      organisationId: study.organisationId,
      createdBy: scope.principal.userId,
      accept: PATIENT_DOCUMENT_LIMITS.accept,
      maxBytes: PATIENT_DOCUMENT_LIMITS.maxBytes,
    });
    await tx.insert(patientDocuments).values({
      studyId: study.id,
      fileId: stored.id,
      filename: file.filename,
      uploadedBy: scope.principal.userId,
      // The statement's time: documents added together keep their order (lists sort by created_at).
      createdAt: sql`clock_timestamp()`,
    });
  }
}

/** POST /worklist/{id}/document: adds the files (checked beforehand) to the item's documents. */
export async function attachPatientDocuments(
  tx: TTx,
  blobs: BlobStore,
  input: { scope: TScope; studyId: string; files: readonly TUpload[] },
): Promise<string> {
  const study = await requireDocumentManager(tx, input.scope, input.studyId, { forUpdate: true });
  await addDocuments(tx, blobs, input.scope, study, input.files);
  return study.id;
}

/**
 * PATCH /worklist/{id}/document: keeps the documents named in `keep` (by filename or id), removes
 * the others from the item and adds the new files — all or nothing. Removed documents are unlinked
 * from the item; their stored files stay (a duplicated item may share them; audit trail).
 */
export async function replacePatientDocuments(
  tx: TTx,
  blobs: BlobStore,
  input: { scope: TScope; studyId: string; keep: readonly string[]; files: readonly TUpload[] },
): Promise<string> {
  const study = await requireDocumentManager(tx, input.scope, input.studyId, { forUpdate: true });
  const existing = await tx
    .select({ id: patientDocuments.id, filename: patientDocuments.filename })
    .from(patientDocuments)
    .where(eq(patientDocuments.studyId, study.id))
    .orderBy(asc(patientDocuments.createdAt));
  const keep = new Set(input.keep);
  const unknown = [...keep].filter(
    (name) => !existing.some((doc) => doc.filename === name || doc.id === name),
  );
  if (unknown.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `filenames: no document of this item is named ${unknown.join(', ')}`,
      {
        field: 'filenames',
        unknown,
      },
    );
  }
  for (const doc of existing) {
    if (keep.has(doc.filename) || keep.has(doc.id)) continue;
    await tx.delete(patientDocuments).where(eq(patientDocuments.id, doc.id));
  }
  await addDocuments(tx, blobs, input.scope, study, input.files);
  return study.id;
}

/** One document of a visible item with its stored file, or 404. */
export async function findPatientDocument(db: TDbOrTx, scope: TScope, studyId: string, documentId: string) {
  const study = await requireVisibleStudy(db, scope, studyId);
  const [row] = await db
    .select({ document: patientDocuments, file: storedFiles })
    .from(patientDocuments)
    .innerJoin(storedFiles, eq(storedFiles.id, patientDocuments.fileId))
    .where(and(eq(patientDocuments.id, documentId), eq(patientDocuments.studyId, study.id)));
  if (!row) throw AppError.notFound('Document');
  return row;
}
