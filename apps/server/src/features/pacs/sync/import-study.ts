// A study the archive has becomes (or updates) a worklist item: the one command every sync path
// (Orthanc /changes, QIDO polling, "Sync from PACS") goes through. Idempotent by study UID: the
// transaction holds an advisory lock on (organisation, study UID), so two replicas or a retried job
// importing the same study meet one row; a crash before commit leaves nothing.
import { generateIdentifier, modalityGroupOfStudy } from '@ris/domain';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { TTx } from '../../../db/client.ts';
import { studies } from '../../../db/schema/index.ts';
import type { TArchiveStudy } from '../../../integrations/pacs/dicom-json.ts';
import { registerPatient } from '../../patients/commands/register-patient.ts';
import { applyTransition, recordCreation } from '../../studies/commands/study-status.ts';

export type TSyncArchive = {
  id: string;
  organisationId: string;
  name: string;
  defaultFacilityId: string | null;
  /** The facilities it serves, with the institution name that routes a study to each. */
  facilities: readonly { facilityId: string; facilityName: string; institutionName: string | null }[];
};

export type TImportOutcome =
  | { kind: 'added' | 'activated' | 'updated'; studyIds: string[] }
  | { kind: 'unchanged'; studyIds: [] }
  | { kind: 'skipped'; studyIds: []; reason: string };

/**
 * The facility a study belongs to: the archive facility whose institution name (or, without one,
 * whose own name) equals the study's InstitutionName, case-insensitively; else the archive's
 * default facility; else its only facility; else none.
 */
export function facilityFor(archive: TSyncArchive, institutionName: string | null): string | null {
  const wanted = institutionName?.trim().toLowerCase();
  if (wanted) {
    const match = archive.facilities.find(
      (facility) => (facility.institutionName ?? facility.facilityName).trim().toLowerCase() === wanted,
    );
    if (match) return match.facilityId;
  }
  if (archive.defaultFacilityId) return archive.defaultFacilityId;
  const [only, ...others] = archive.facilities;
  return only && others.length === 0 ? only.facilityId : null;
}

/** The columns an archive's description of a study sets. */
function studyColumns(study: TArchiveStudy) {
  const modality = study.modalities.length > 0 ? study.modalities.join(',') : null;
  return {
    modality,
    modalityGroup: modalityGroupOfStudy(study.modalities),
    seriesCount: study.seriesCount,
    instanceCount: study.instanceCount,
  };
}

async function lockStudyUid(tx: TTx, organisationId: string, studyUid: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`pacs:${organisationId}:${studyUid}`}, 0))`,
  );
}

/** An existing item of this study: refresh what the archive may have changed since. */
async function refresh(
  tx: TTx,
  archive: TSyncArchive,
  existing: typeof studies.$inferSelect,
  study: TArchiveStudy,
  archiveStudyKey: string | null,
): Promise<TImportOutcome> {
  const columns = studyColumns(study);
  const changed =
    existing.seriesCount !== columns.seriesCount ||
    existing.instanceCount !== columns.instanceCount ||
    (columns.modality !== null && existing.modality !== columns.modality) ||
    existing.archiveDeletedAt !== null ||
    existing.pacsArchiveId === null ||
    (archiveStudyKey !== null && existing.archiveStudyKey !== archiveStudyKey) ||
    (existing.bodyPart === null && study.bodyPart !== null);
  if (!changed) return { kind: 'unchanged', studyIds: [] };
  // The original and its duplicates show the same images: their counts move together.
  const updated = await tx
    .update(studies)
    .set({
      seriesCount: columns.seriesCount,
      instanceCount: columns.instanceCount,
      ...(columns.modality !== null
        ? { modality: columns.modality, modalityGroup: columns.modalityGroup }
        : {}),
      archiveDeletedAt: null,
      pacsArchiveId: sql`coalesce(${studies.pacsArchiveId}, ${archive.id}::uuid)`,
      ...(archiveStudyKey !== null ? { archiveStudyKey } : {}),
      bodyPart: sql`coalesce(${studies.bodyPart}, ${study.bodyPart})`,
      updatedAt: sql`now()`,
    })
    .where(or(eq(studies.id, existing.id), eq(studies.duplicatedFromStudyId, existing.id)))
    .returning({ id: studies.id });
  return { kind: 'updated', studyIds: updated.map((row) => row.id) };
}

/** An ORDERED order of the facility waiting for this accession (and no other study). */
async function waitingOrder(tx: TTx, facilityId: string, study: TArchiveStudy) {
  if (study.accessionNumber === '') return null;
  const [order] = await tx
    .select({ id: studies.id, status: studies.status })
    .from(studies)
    .where(
      and(
        eq(studies.facilityId, facilityId),
        eq(studies.accessionNumber, study.accessionNumber),
        eq(studies.status, 'ORDERED'),
        isNull(studies.duplicatedFromStudyId),
        or(isNull(studies.studyUid), eq(studies.studyUid, study.studyUid)),
      ),
    )
    .limit(1)
    .for('update');
  return order ?? null;
}

/** The study's accession if the facility has no other study under it, else a generated one. */
async function freeAccession(tx: TTx, facilityId: string, accession: string): Promise<string> {
  if (accession === '') return generateIdentifier();
  const [taken] = await tx
    .select({ id: studies.id })
    .from(studies)
    .where(
      and(
        eq(studies.facilityId, facilityId),
        eq(studies.accessionNumber, accession),
        isNull(studies.duplicatedFromStudyId),
      ),
    )
    .limit(1);
  return taken ? generateIdentifier() : accession;
}

/** Applies the archive's description of one study; see the file comment. */
export async function importStudy(
  tx: TTx,
  input: { archive: TSyncArchive; study: TArchiveStudy; archiveStudyKey: string | null },
): Promise<TImportOutcome> {
  const { archive, study, archiveStudyKey } = input;
  await lockStudyUid(tx, archive.organisationId, study.studyUid);
  const [existing] = await tx
    .select()
    .from(studies)
    .where(
      and(
        eq(studies.organisationId, archive.organisationId),
        eq(studies.studyUid, study.studyUid),
        isNull(studies.duplicatedFromStudyId),
      ),
    )
    .limit(1);
  if (existing) return refresh(tx, archive, existing, study, archiveStudyKey);

  const facilityId = facilityFor(archive, study.institutionName);
  if (!facilityId) {
    return {
      kind: 'skipped',
      studyIds: [],
      reason: `study ${study.studyUid}: no facility of ${archive.name} matches institution "${study.institutionName ?? ''}" and the archive has no default facility`,
    };
  }
  const columns = studyColumns(study);
  const details = {
    ...columns,
    studyUid: study.studyUid,
    studyDescription: study.studyDescription,
    bodyPart: study.bodyPart,
    studyDatetime: study.studyDatetime,
    pacsArchiveId: archive.id,
    archiveStudyKey,
  };
  const order = await waitingOrder(tx, facilityId, study);
  if (order) {
    const result = await applyTransition(tx, {
      study: order,
      event: 'activate',
      byUserId: null,
      set: details,
      comment: `Images received from ${archive.name}`,
    });
    if (result.ok) return { kind: 'activated', studyIds: [order.id] };
  }
  const patient = await registerPatient(tx, {
    organisationId: archive.organisationId,
    facilityId,
    identifier: study.patientId || generateIdentifier(),
    name: study.patientName || 'Unknown',
    sex: study.patientSex,
    birthDate: study.patientBirthDate,
  });
  const [created] = await tx
    .insert(studies)
    .values({
      ...details,
      organisationId: archive.organisationId,
      facilityId,
      patientId: patient.id,
      accessionNumber: await freeAccession(tx, facilityId, study.accessionNumber),
      patientName: patient.name,
      patientIdentifier: patient.patientIdentifier,
      patientSex: patient.sex,
      patientBirthDate: patient.birthDate,
      status: 'TO_READ',
      createdBy: null,
    })
    .returning({ id: studies.id });
  if (!created) throw new Error('study insert returned nothing');
  await recordCreation(tx, created.id, 'TO_READ', null, `Received from ${archive.name}`);
  return { kind: 'added', studyIds: [created.id] };
}

/** The archive no longer has this study: its items are marked (kept, with their reports). */
export async function markDeletedInArchive(
  tx: TTx,
  archive: Pick<TSyncArchive, 'id' | 'organisationId'>,
  key: { archiveStudyKey?: string; studyUids?: readonly string[] },
): Promise<string[]> {
  const match = key.archiveStudyKey
    ? eq(studies.archiveStudyKey, key.archiveStudyKey)
    : key.studyUids && key.studyUids.length > 0
      ? inArray(studies.studyUid, [...key.studyUids])
      : null;
  if (!match) return [];
  const rows = await tx
    .update(studies)
    .set({ archiveDeletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(studies.organisationId, archive.organisationId),
        eq(studies.pacsArchiveId, archive.id),
        isNull(studies.archiveDeletedAt),
        match,
      ),
    )
    .returning({ id: studies.id });
  return rows.map((row) => row.id);
}
