// Who signs a rendered report: the chosen radiologists (by-rad), else the report's signatures in
// order, else (for a report not final yet) the assigned radiologist. Each with display name,
// description and qualification lines, and signature image.
import { and, asc, eq, exists, inArray } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client.ts';
import {
  radiologistDetails,
  reportSignatures,
  storedFiles,
  userFacilities,
  users,
} from '../../db/schema/index.ts';
import type { TSignatureBlock } from '../../documents/report-document.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { AppError } from '../../http/app-error.ts';
import { readDocumentImage } from './document-images.ts';
import { formatDateTime } from './patient-block.ts';

export type TSignerRequest = {
  reportId: string;
  organisationId: string;
  /** The study's facility: chosen signers must work there. */
  facilityId: string;
  reportFinal: boolean;
  assignedUserId: string | null;
  timeZone: string;
  /** Chosen signers in order (rad_user_ids): each an active radiologist of the study's facility. */
  signerIds?: readonly string[] | undefined;
};

type TSignerRow = {
  id: string;
  displayName: string;
  firstName: string;
  lastName: string;
  description: string | null;
  qualification: string | null;
  registrationNumber: string | null;
  signatureFile: typeof storedFiles.$inferSelect | null;
};

/** One answer for any unusable chosen signer: it must not tell who is a radiologist where. */
export const UNUSABLE_SIGNER_MESSAGE =
  "rad_user_ids: each must be an active radiologist of this study's facility";

async function loadSignerRows(
  db: TDbOrTx,
  ids: readonly string[],
  organisationId: string,
  /** Only active radiologists working at this facility (chosen signers); null: anyone (own signers). */
  chosenAtFacility: string | null,
): Promise<Map<string, TSignerRow>> {
  if (ids.length === 0) return new Map();
  const conditions = [inArray(users.id, [...ids]), eq(users.organisationId, organisationId)];
  if (chosenAtFacility !== null) {
    conditions.push(
      eq(users.role, 'RADIOLOGIST'),
      eq(users.status, 'ACTIVE'),
      exists(
        db
          .select({ one: userFacilities.userId })
          .from(userFacilities)
          .where(and(eq(userFacilities.userId, users.id), eq(userFacilities.facilityId, chosenAtFacility))),
      ),
    );
  }
  const rows = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      firstName: users.firstName,
      lastName: users.lastName,
      description: radiologistDetails.description,
      qualification: radiologistDetails.qualification,
      registrationNumber: radiologistDetails.registrationNumber,
      signatureFile: storedFiles,
    })
    .from(users)
    .leftJoin(radiologistDetails, eq(radiologistDetails.userId, users.id))
    .leftJoin(storedFiles, eq(storedFiles.id, users.signatureFileId))
    .where(and(...conditions));
  return new Map(rows.map((row) => [row.id, row]));
}

const nameOf = (row: TSignerRow) =>
  row.displayName.trim() || `${row.firstName} ${row.lastName}`.trim() || 'Radiologist';

function descriptionOf(row: TSignerRow): string | null {
  const lines = [
    row.description,
    row.qualification,
    row.registrationNumber ? `Reg. No. ${row.registrationNumber}` : null,
  ]
    .map((line) => line?.trim())
    .filter((line): line is string => Boolean(line));
  return lines.length > 0 ? lines.join('\n') : null;
}

/** The signature blocks of a rendered report (see the file comment for who signs). */
export async function loadSignatureBlocks(
  db: TDbOrTx,
  blobs: BlobStore,
  request: TSignerRequest,
): Promise<TSignatureBlock[]> {
  const signed = await db
    .select({ userId: reportSignatures.userId, signedAt: reportSignatures.signedAt })
    .from(reportSignatures)
    .where(eq(reportSignatures.reportId, request.reportId))
    .orderBy(asc(reportSignatures.signedAt));
  const signedAt = new Map(signed.map((row) => [row.userId, row.signedAt]));

  let ids: string[];
  let rows: Map<string, TSignerRow>;
  if (request.signerIds !== undefined) {
    ids = [...new Set(request.signerIds)];
    rows = await loadSignerRows(db, ids, request.organisationId, request.facilityId);
    if (ids.some((id) => !rows.has(id))) {
      throw new AppError('VALIDATION_FAILED', UNUSABLE_SIGNER_MESSAGE, { field: 'rad_user_ids' });
    }
  } else {
    ids = signed.map((row) => row.userId);
    if (ids.length === 0 && !request.reportFinal && request.assignedUserId) ids = [request.assignedUserId];
    // The report's own signers are shown whatever became of their accounts since.
    rows = await loadSignerRows(db, ids, request.organisationId, null);
  }

  const blocks: TSignatureBlock[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) continue;
    const at = signedAt.get(id);
    blocks.push({
      displayName: nameOf(row),
      description: descriptionOf(row),
      image: await readDocumentImage(blobs, row.signatureFile, `The signature of ${nameOf(row)}`),
      signedNote: at ? `Electronically signed ${formatDateTime(at, request.timeZone)}` : null,
    });
  }
  return blocks;
}
