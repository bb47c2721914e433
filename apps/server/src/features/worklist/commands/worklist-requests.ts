// Request schemas of the worklist commands (spec §7 names). Multipart fields arrive as strings, so
// numbers are coerced and blank strings count as absent.
import { ZPriorityTag, ZReviewTransition, ZUuid } from '@ris/domain';
import { z } from 'zod';

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

/** A DICOM UID: digits and dots, at most 64 characters, no empty or zero-padded components. */
export const ZDicomUid = z
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

export const ZCreateOrderFields = z.object({
  patient_name: text(200),
  /** The MRN; absent → a generated 'SM…' identifier. */
  patient_id: optionalText(64),
  patient_sex: blankAsAbsent(ZPatientSex.optional()),
  patient_birth_date: blankAsAbsent(z.iso.date().optional()),
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

export const ZActivateFields = z.object({
  worklist_id: ZUuid,
  /** Absent → a generated '2.25.<uuid as integer>' UID (or the one a duplicate already shares). */
  study_uid: blankAsAbsent(ZDicomUid.optional()),
  series_count: blankAsAbsent(z.coerce.number().int().min(0).max(100_000).optional()),
  instance_count: blankAsAbsent(z.coerce.number().int().min(0).max(10_000_000).optional()),
  ...studyFields,
  by_user_id: blankAsAbsent(ZUuid.optional()),
});
export type TActivateFields = z.infer<typeof ZActivateFields>;

export const ZDuplicateFields = z.object({
  worklist_id: ZUuid,
  by_user_id: blankAsAbsent(ZUuid.optional()),
});

/** PUT /worklist/{id}. Every field is optional; each one needs its own permission (worklist.policy). */
export const ZUpdateWorklistBody = z.object({
  patient_name: text(200).optional(),
  patient_id: text(64).optional(),
  patient_sex: ZPatientSex.nullable().optional(),
  patient_birth_date: z.iso.date().nullable().optional(),
  modality: text(32).optional(),
  study: z.string().trim().max(200).nullable().optional(),
  body_part: z.string().trim().max(100).nullable().optional(),
  clinical_history: z.string().trim().max(10_000).nullable().optional(),
  referring_physician_fk: ZUuid.nullable().optional(),
  referring_physician_name: z.string().trim().max(200).nullable().optional(),
  priority_tag: ZPriorityTag.nullable().optional(),
  collaboration_enabled: z.boolean().optional(),
  /** Review hand-off (ZReviewTransition): IN_REVIEW submits a draft, DRAFTED returns it from review. */
  status: ZReviewTransition.shape.status.optional(),
  /** Recorded with the status change in the history (and sent with the notification). */
  comment: ZReviewTransition.shape.comment,
  by_user_id: ZUuid.optional(),
});
export type TUpdateWorklistBody = z.infer<typeof ZUpdateWorklistBody>;

export const ZByUser = z.object({ by_user_id: ZUuid.optional() });

const ZWorklistIds = z
  .array(ZUuid)
  .min(1, 'worklist_ids must name at least one worklist item')
  .max(500)
  .transform((ids) => [...new Set(ids)]);

export const ZAssignRadiologistBody = z.object({
  worklist_ids: ZWorklistIds,
  last_assigned_user_fk: ZUuid,
  by_user_id: ZUuid.optional(),
});
export const ZBulkBody = z.object({ worklist_ids: ZWorklistIds, by_user_id: ZUuid.optional() });
export const ZAssignPriorityBody = ZBulkBody.extend({ priority_tag: ZPriorityTag });

export const ZSkipped = z.object({ id: ZUuid, reason: z.string() });
