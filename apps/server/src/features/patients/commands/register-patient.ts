import { and, eq } from 'drizzle-orm';
import type { TTx } from '../../../db/client.ts';
import { patients } from '../../../db/schema/index.ts';
import { keptRecordOf } from '../patients.queries.ts';

export type TRegisterPatient = {
  organisationId: string;
  facilityId: string;
  /** The facility's MRN (DICOM PatientID). */
  identifier: string;
  name: string;
  sex: string | null;
  birthDate: string | null;
};

/**
 * The patient registered at the facility under this MRN (the record it was merged into, if any),
 * created when there is none. An existing record is used as it is: a new order or study never
 * rewrites the patient's details. Safe under concurrency (unique facility + MRN, ON CONFLICT).
 */
export async function registerPatient(tx: TTx, input: TRegisterPatient) {
  const [created] = await tx
    .insert(patients)
    .values({
      organisationId: input.organisationId,
      facilityId: input.facilityId,
      patientIdentifier: input.identifier,
      name: input.name,
      sex: input.sex,
      birthDate: input.birthDate,
    })
    .onConflictDoNothing({ target: [patients.facilityId, patients.patientIdentifier] })
    .returning();
  if (created) return created;
  const [existing] = await tx
    .select()
    .from(patients)
    .where(and(eq(patients.facilityId, input.facilityId), eq(patients.patientIdentifier, input.identifier)));
  if (!existing) throw new Error('patient vanished between insert and select');
  return keptRecordOf(tx, existing);
}
