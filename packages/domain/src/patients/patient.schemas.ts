import { z } from 'zod';
import { ZPaginationQuery, paginatedSchema } from '../api/pagination.ts';
import { ZUuid } from '../common/uuid.ts';
import { ZPatientSex } from '../orders/order.schemas.ts';
import { ZRepeatedParam } from '../worklist/worklist.schemas.ts';

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
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type TPatient = z.infer<typeof ZPatient>;

/** GET /user/patients: the order dialog's patient search. */
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
  birth_date: z.iso.date().nullable().optional(),
  phone: z.string().trim().max(40).nullable().optional(),
  email: z.email().max(254).nullable().optional(),
  by_user_id: ZUuid.optional(),
});
export type TPatchPatientBody = z.infer<typeof ZPatchPatientBody>;
