import { eq, sql } from 'drizzle-orm';
import type { TRequestOrigin } from '../../../auth/audit.ts';
import type { TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { auditEvents, patients, studies } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { authorizePatient } from '../patients.policy.ts';
import type { TPatientRow } from '../patients.presenter.ts';
import { assertLive, lockScopedPatients, requireScopedPatient } from '../patients.queries.ts';
import { rewriteStudyCopies } from '../update-patient.ts';

/** Fields of the record kept that take the duplicate's value when they are empty. */
const FILLED_FROM_DUPLICATE = ['sex', 'birthDate', 'phone', 'email'] as const;

const isEmpty = (value: string | null) => value === null || value.trim() === '';

/** The audit log's copy of a record: every field a person entered, so a merge can be retraced. */
function snapshot(row: TPatientRow) {
  return {
    id: row.id,
    facility_id: row.facilityId,
    patient_id: row.patientIdentifier,
    name: row.name,
    sex: row.sex,
    birth_date: row.birthDate,
    phone: row.phone,
    email: row.email,
  };
}

export type TMergeOutcome = {
  kept: TPatientRow;
  merged: TPatientRow;
  movedStudyIds: string[];
  /** Studies whose patient columns changed (to announce after commit). */
  changedStudyIds: string[];
};

/**
 * Merges record `duplicateId` into record `keptId` (two records of one person at one facility), in
 * the caller's transaction: the duplicate's studies move to the kept record, the kept record's empty
 * fields take the duplicate's values, records merged into the duplicate earlier now point at the kept
 * one, and the duplicate stays, marked merged (nothing is deleted). The audit log names both records
 * with their fields before the merge. Both rows are locked, in id order (two merges of the same pair
 * cannot deadlock).
 */
export async function mergePatients(
  tx: TTx,
  input: { scope: TScope; keptId: string; duplicateId: string; origin: TRequestOrigin },
): Promise<TMergeOutcome> {
  const { scope, keptId, duplicateId } = input;
  if (keptId === duplicateId) {
    throw new AppError('VALIDATION_FAILED', 'duplicate_id: a record cannot be merged into itself', {
      field: 'duplicate_id',
    });
  }
  await lockScopedPatients(tx, scope, [keptId, duplicateId]);
  const kept = await requireScopedPatient(tx, scope, keptId);
  const duplicate = await requireScopedPatient(tx, scope, duplicateId, { field: 'duplicate_id' });
  authorizePatient(scope.principal, 'merge');
  assertLive(kept, 'id');
  assertLive(duplicate, 'duplicate_id');
  if (kept.facilityId !== duplicate.facilityId) {
    throw new AppError(
      'UNPROCESSABLE',
      'duplicate_id: records of different facilities cannot be merged (each facility issues its own patient ids)',
      { field: 'duplicate_id' },
    );
  }

  const moved = await tx
    .update(studies)
    .set({ patientId: kept.id })
    .where(eq(studies.patientId, duplicate.id))
    .returning({ id: studies.id });
  const fill = Object.fromEntries(
    FILLED_FROM_DUPLICATE.filter((field) => isEmpty(kept[field]) && !isEmpty(duplicate[field])).map(
      (field) => [field, duplicate[field]],
    ),
  );
  const [keptAfter] =
    Object.keys(fill).length > 0
      ? await tx.update(patients).set(fill).where(eq(patients.id, kept.id)).returning()
      : [kept];
  await tx.update(patients).set({ mergedIntoId: kept.id }).where(eq(patients.mergedIntoId, duplicate.id));
  const [mergedAfter] = await tx
    .update(patients)
    .set({ mergedIntoId: kept.id, mergedAt: sql`now()` })
    .where(eq(patients.id, duplicate.id))
    .returning();
  if (!keptAfter || !mergedAfter) throw new Error('patient merge lost a record');
  const changedStudyIds = await rewriteStudyCopies(tx, keptAfter);
  const movedStudyIds = moved.map((row) => row.id);

  await tx.insert(auditEvents).values({
    organisationId: scope.organisationId,
    actorUserId: scope.principal.userId,
    action: 'patient.merge',
    entityType: 'patient',
    entityId: kept.id,
    ip: input.origin.ip,
    userAgent: input.origin.userAgent?.slice(0, 512) ?? null,
    data: {
      kept_id: kept.id,
      duplicate_id: duplicate.id,
      kept: snapshot(kept),
      duplicate: snapshot(duplicate),
      filled_from_duplicate: Object.keys(fill),
      moved_study_ids: movedStudyIds,
    },
  });
  return { kept: keptAfter, merged: mergedAfter, movedStudyIds, changedStudyIds };
}
