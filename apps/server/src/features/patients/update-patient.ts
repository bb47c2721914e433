import { and, eq, ne } from 'drizzle-orm';
import type { TTx } from '../../db/client.ts';
import { patients, studies } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { TPatientRow } from './patients.presenter.ts';

/** Fields of a patient record a person may correct. */
export type TPatientChanges = {
  name?: string;
  patientIdentifier?: string;
  sex?: string | null;
  birthDate?: string | null;
  phone?: string | null;
  email?: string | null;
};

/**
 * Writes the record's name, identifier, sex and birth date onto every one of its studies (the
 * worklist reads those copies, so it never shows stale names). Returns the ids of the studies that
 * are not deleted (to announce them).
 */
export async function rewriteStudyCopies(tx: TTx, patient: TPatientRow): Promise<string[]> {
  const rows = await tx
    .update(studies)
    .set({
      patientName: patient.name,
      patientIdentifier: patient.patientIdentifier,
      patientSex: patient.sex,
      patientBirthDate: patient.birthDate,
    })
    .where(eq(studies.patientId, patient.id))
    .returning({ id: studies.id, status: studies.status });
  return rows.filter((row) => row.status !== 'DELETED').map((row) => row.id);
}

/**
 * Corrects a patient record and rewrites the copies of its fields on its studies, in the caller's
 * transaction. Another record of the facility with the new identifier is a 409 naming patient_id.
 * Returns the ids of the patient's studies that are not deleted (to announce them).
 */
export async function updatePatient(
  tx: TTx,
  patient: TPatientRow,
  changes: TPatientChanges,
): Promise<string[]> {
  const identifier = changes.patientIdentifier;
  if (identifier !== undefined && identifier !== patient.patientIdentifier) {
    const [clash] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(
        and(
          eq(patients.facilityId, patient.facilityId),
          eq(patients.patientIdentifier, identifier),
          ne(patients.id, patient.id),
        ),
      )
      .limit(1);
    if (clash) {
      throw new AppError('CONFLICT', 'patient_id: another patient of this facility has this identifier', {
        field: 'patient_id',
      });
    }
  }
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  if (Object.keys(defined).length === 0) return [];
  const [updated] = await tx.update(patients).set(defined).where(eq(patients.id, patient.id)).returning();
  if (!updated) throw new Error('patient update returned nothing');
  return rewriteStudyCopies(tx, updated);
}
