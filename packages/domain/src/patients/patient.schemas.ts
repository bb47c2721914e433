import { z } from 'zod';
import { ZPaginationQuery, paginatedSchema } from '../api/pagination.ts';
import { ZUuid } from '../common/uuid.ts';
import { ZBirthDate, ZPatientSex } from '../orders/order.schemas.ts';
import { ZRepeatedParam, ZWorklistItem } from '../worklist/worklist.schemas.ts';

/**
 * What the caller may do with a patient record now (the server's patient policy): `edit` with
 * PATCH /user/patient/{id}, `merge` another record of the same person into it
 * (POST /user/patient/{id}/merge: administrators, records not merged themselves).
 */
export const ZPatientAbilities = z
  .object({ edit: z.boolean(), merge: z.boolean() })
  .describe("The caller's abilities on this patient record (computed by the server's patient policy)");
export type TPatientAbilities = z.infer<typeof ZPatientAbilities>;

/** A patient record of a facility (GET /user/patients, PATCH /user/patient/{id}). */
export const ZPatient = z.object({
  id: ZUuid,
  facility_fk: ZUuid,
  /** The MRN. */
  patient_id: z.string(),
  name: z.string(),
  sex: z.string().nullable(),
  birth_date: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** The record this one was merged into (its studies are there now); null for a live record. */
  merged_into_fk: ZUuid.nullable(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  abilities: ZPatientAbilities,
});
export type TPatient = z.infer<typeof ZPatient>;

/** GET /user/patients: patient records of the caller's facilities (records merged away are left out). */
export const ZPatientsQuery = ZPaginationQuery.extend({
  /** Substring of name or patient id; case- and accent-insensitive. */
  search: z.string().trim().max(100).optional(),
  facility_fks: ZRepeatedParam(ZUuid),
});
export type TPatientsQuery = z.input<typeof ZPatientsQuery>;

export const ZPatientList = paginatedSchema(ZPatient);
export type TPatientList = z.infer<typeof ZPatientList>;

/** PATCH /user/patient/{id}: the fields given change (its studies' patient columns with them). */
export const ZPatchPatientBody = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  patient_id: z.string().trim().min(1).max(64).optional(),
  sex: ZPatientSex.nullable().optional(),
  birth_date: ZBirthDate.nullable().optional(),
  phone: z.string().trim().max(40).nullable().optional(),
  email: z.email().max(254).nullable().optional(),
  by_user_id: ZUuid.optional(),
});
export type TPatchPatientBody = z.infer<typeof ZPatchPatientBody>;

/** GET /user/patient/{id}/studies: the record's studies the caller may see, newest first. */
export const ZPatientStudiesQuery = ZPaginationQuery;
export type TPatientStudiesQuery = z.input<typeof ZPatientStudiesQuery>;

export const ZPatientStudies = paginatedSchema(ZWorklistItem);
export type TPatientStudies = z.infer<typeof ZPatientStudies>;

/**
 * POST /user/patient/{id}/merge: `duplicate_id` is another record of the same person at the same
 * facility. Its studies move to record {id}, {id}'s empty fields take the duplicate's values, and the
 * duplicate stays, marked merged into {id} (nothing is deleted); the audit log names both.
 */
export const ZMergePatientBody = z.object({
  duplicate_id: ZUuid,
  by_user_id: ZUuid.optional(),
});
export type TMergePatientBody = z.infer<typeof ZMergePatientBody>;

export const ZMergePatientResult = z.object({
  /** The record kept, as it is after the merge. */
  patient: ZPatient,
  /** The duplicate, now marked merged into `patient`. */
  merged: ZPatient,
  /** The studies that moved from the duplicate to the record kept. */
  moved_study_ids: z.array(ZUuid),
});
export type TMergePatientResult = z.infer<typeof ZMergePatientResult>;
