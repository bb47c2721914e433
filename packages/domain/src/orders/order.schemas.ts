// Request schemas of the order desk (spec §7 names): POST /worklist/create/order, /activate and
// /duplicate. They arrive as multipart fields, all strings: numbers are coerced and blank strings
// count as absent.
import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { ZPriorityTag } from '../studies/priority-tags.ts';

/** '' (a blank form field) → undefined, so optional fields may be sent empty. */
function blankAsAbsent<TSchema extends z.ZodType>(schema: TSchema) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema,
  );
}

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => blankAsAbsent(text(max).optional());

/** DICOM PatientSex: M, F or O (MALE / FEMALE / OTHER accepted in any case). */
export const ZPatientSex = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? (({ MALE: 'M', FEMALE: 'F', OTHER: 'O' } as Record<string, string>)[value.trim().toUpperCase()] ??
        value.trim().toUpperCase())
      : value,
  z.enum(['M', 'F', 'O']),
);

/**
 * A patient's date of birth (YYYY-MM-DD): not in the future. A day ahead of UTC is allowed, as today
 * is already tomorrow in time zones east of it.
 */
export const ZBirthDate = z.iso.date().refine((value) => {
  const latest = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return value <= latest;
}, 'must not be in the future');

/** A new study's DICOM UID: digits and dots, at most 64 characters, no empty or zero-padded components. */
const ZStudyUid = z
  .string()
  .trim()
  .max(64)
  .regex(/^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))+$/, 'must be a DICOM UID (digits and dots)');

const ZDateTime = z.iso.datetime({ offset: true });

/** Study fields an order or an activation may set. */
const studyFields = {
  modality: optionalText(32),
  study: optionalText(200),
  body_part: optionalText(100),
  datetime: blankAsAbsent(ZDateTime.optional()),
};

/** POST /worklist/create/order (multipart, with documents under `files`). */
export const ZCreateOrderFields = z.object({
  patient_name: text(200),
  /** The MRN; absent → a generated 'SM…' identifier. */
  patient_id: optionalText(64),
  patient_sex: blankAsAbsent(ZPatientSex.optional()),
  patient_birth_date: blankAsAbsent(ZBirthDate.optional()),
  ...studyFields,
  modality: text(32),
  facility_fk: ZUuid,
  priority_tag: blankAsAbsent(ZPriorityTag.optional()),
  referring_physician_fk: blankAsAbsent(ZUuid.optional()),
  referring_physician_name: optionalText(200),
  clinical_history: optionalText(10_000),
  by_user_id: blankAsAbsent(ZUuid.optional()),
});
export type TCreateOrderFields = z.infer<typeof ZCreateOrderFields>;

/** POST /worklist/activate (multipart). */
export const ZActivateFields = z.object({
  worklist_id: ZUuid,
  /** Absent → a generated '2.25.<uuid as integer>' UID (or the one a duplicate already shares). */
  study_uid: blankAsAbsent(ZStudyUid.optional()),
  series_count: blankAsAbsent(z.coerce.number().int().min(0).max(100_000).optional()),
  instance_count: blankAsAbsent(z.coerce.number().int().min(0).max(10_000_000).optional()),
  ...studyFields,
  by_user_id: blankAsAbsent(ZUuid.optional()),
});
export type TActivateFields = z.infer<typeof ZActivateFields>;

/** POST /worklist/duplicate (multipart). */
export const ZDuplicateFields = z.object({
  worklist_id: ZUuid,
  by_user_id: blankAsAbsent(ZUuid.optional()),
});
export type TDuplicateFields = z.infer<typeof ZDuplicateFields>;
