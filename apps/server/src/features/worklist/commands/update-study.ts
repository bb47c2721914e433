import { modalityGroupOf, type TUpdateWorklistBody } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { patients, studies } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { updatePatient } from '../../patients/update-patient.ts';
import { applyReviewTransition } from '../../reports/report-review.ts';
import { canWorklist, type TWorklistAction } from '../../studies/study.policy.ts';
import { requireVisibleItem } from '../../studies/study.queries.ts';
import { requireReferringPhysician } from '../../referring-physicians/referring-physicians.queries.ts';
import type { TCreatedNotification } from '../../notifications/create-notifications.ts';
import { applyTransition } from '../../studies/commands/study-status.ts';

/** Which permission each field of PUT /worklist/{id} needs. */
const FIELD_ACTIONS = {
  patient_name: 'edit-details',
  patient_id: 'edit-details',
  patient_sex: 'edit-details',
  patient_birth_date: 'edit-details',
  modality: 'edit-details',
  study: 'edit-details',
  body_part: 'edit-details',
  clinical_history: 'edit-details',
  referring_physician_fk: 'edit-details',
  referring_physician_name: 'edit-details',
  priority_tag: 'set-priority',
  collaboration_enabled: 'toggle-collaboration',
} as const satisfies Record<
  Exclude<keyof TUpdateWorklistBody, 'by_user_id' | 'status' | 'comment'>,
  TWorklistAction
>;

/** The visible study, locked (404 outside the caller's scope, and for deleted ones to non-admins). */
export async function loadStudyForChange(tx: TTx, scope: TScope, id: string) {
  const row = await requireVisibleItem(tx, scope, id, { forUpdate: true });
  return row.study;
}

export type TUpdateStudyResult = {
  /** Every item that changed, this one first. */
  ids: string[];
  /** Notifications of a review transition, announced after commit. */
  notifications: TCreatedNotification[];
  /** A report whose status changed with a review transition (report.status.changed). */
  reportId: string | null;
};

/**
 * PUT /worklist/{id}. Each field needs its permission (403 naming the fields otherwise). Patient
 * fields correct the patient record itself, so all of that patient's studies change with it.
 * `status` (IN_REVIEW / DRAFTED, with `comment`) is the review hand-off (features/reports/report-review.ts),
 * applied after the field changes.
 */
export async function updateStudy(
  tx: TTx,
  input: { scope: TScope; id: string; body: TUpdateWorklistBody },
): Promise<TUpdateStudyResult> {
  const { scope, body } = input;
  const study = await loadStudyForChange(tx, scope, input.id);
  if (study.status === 'DELETED') throw new AppError('CONFLICT', 'A deleted study cannot be changed');
  const fields = (Object.keys(FIELD_ACTIONS) as (keyof typeof FIELD_ACTIONS)[]).filter(
    (field) => body[field] !== undefined,
  );
  const refused = fields.filter((field) => !canWorklist(scope.principal, FIELD_ACTIONS[field], study));
  if (refused.length > 0) {
    throw new AppError('FORBIDDEN', `You may not change ${refused.join(', ')} of this study`, {
      fields: refused,
    });
  }
  const changed = new Set<string>([study.id]);
  if (fields.some((field) => field.startsWith('patient_'))) {
    const [patient] = await tx.select().from(patients).where(eq(patients.id, study.patientId));
    if (!patient) throw new Error('study without patient');
    const ids = await updatePatient(tx, patient, {
      name: body.patient_name,
      patientIdentifier: body.patient_id,
      sex: body.patient_sex,
      birthDate: body.patient_birth_date,
    });
    for (const id of ids) changed.add(id);
  }
  const physician =
    typeof body.referring_physician_fk === 'string'
      ? await requireReferringPhysician(tx, scope.organisationId, body.referring_physician_fk)
      : null;
  const set: Partial<typeof studies.$inferInsert> = {
    ...(body.modality !== undefined
      ? { modality: body.modality, modalityGroup: modalityGroupOf(body.modality) }
      : {}),
    ...(body.study !== undefined ? { studyDescription: body.study } : {}),
    ...(body.body_part !== undefined ? { bodyPart: body.body_part } : {}),
    ...(body.clinical_history !== undefined ? { clinicalHistory: body.clinical_history } : {}),
    ...(body.referring_physician_fk !== undefined
      ? { referringPhysicianId: physician?.id ?? null, referringPhysicianName: physician?.name ?? null }
      : {}),
    ...(body.referring_physician_name !== undefined && body.referring_physician_fk === undefined
      ? { referringPhysicianId: null, referringPhysicianName: body.referring_physician_name }
      : {}),
    ...(body.priority_tag !== undefined ? { priorityTag: body.priority_tag } : {}),
    ...(body.collaboration_enabled !== undefined ? { collaborationEnabled: body.collaboration_enabled } : {}),
  };
  if (Object.keys(set).length > 0) await tx.update(studies).set(set).where(eq(studies.id, study.id));
  if (body.status === undefined) return { ids: [...changed], notifications: [], reportId: null };
  const review = await applyReviewTransition(tx, {
    scope,
    study: { ...study, ...set },
    transition: { status: body.status, comment: body.comment },
  });
  return { ids: [...changed], ...review };
}

/** DELETE /worklist/{id}: an admin's soft delete to DELETED (a FINAL study cannot be deleted: 409). */
export async function deleteStudy(tx: TTx, input: { scope: TScope; id: string }): Promise<string> {
  const { scope } = input;
  const study = await loadStudyForChange(tx, scope, input.id);
  if (!canWorklist(scope.principal, 'delete', study)) {
    throw new AppError('FORBIDDEN', 'Only an administrator may delete worklist items');
  }
  const result = await applyTransition(tx, {
    study,
    event: 'delete',
    byUserId: scope.principal.userId,
    set: { deletedAt: new Date(), deletedBy: scope.principal.userId },
  });
  if (!result.ok) throw new AppError('CONFLICT', result.reason);
  return study.id;
}
