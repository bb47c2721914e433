import { and, eq } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { studies, userFacilities, users } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { insertNotifications, type TCreatedNotification } from '../../notifications/create-notifications.ts';
import { canWorklist } from '../../studies/study.policy.ts';
import { lockVisibleStudies, type TBulkResult, type TLockedStudy } from './bulk.ts';
import { applyTransition } from '../../studies/commands/study-status.ts';

/** The radiologist to assign: ACTIVE, role RADIOLOGIST, same organisation (else 404 naming the field). */
async function loadAssignee(tx: TTx, scope: TScope, userId: string) {
  const [user] = await tx
    .select({ id: users.id, displayName: users.displayName, status: users.status, role: users.role })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, scope.organisationId)));
  if (!user || user.role !== 'RADIOLOGIST') {
    throw new AppError('NOT_FOUND', 'last_assigned_user_fk: radiologist not found', {
      field: 'last_assigned_user_fk',
    });
  }
  if (user.status !== 'ACTIVE') {
    throw new AppError('UNPROCESSABLE', 'last_assigned_user_fk: the radiologist is not active', {
      field: 'last_assigned_user_fk',
    });
  }
  const facilities = await tx
    .select({ id: userFacilities.facilityId })
    .from(userFacilities)
    .where(eq(userFacilities.userId, user.id));
  return { ...user, facilityIds: new Set(facilities.map((row) => row.id)) };
}

function assignRefusal(scope: TScope, study: TLockedStudy, assigneeId: string): string | null {
  const { principal } = scope;
  const selfClaim = assigneeId === principal.userId && canWorklist(principal, 'assign-self', study);
  if (!canWorklist(principal, 'assign-anyone', study) && !selfClaim) {
    return 'You may not assign this study';
  }
  if (study.lastAssignedUserId === assigneeId) return 'The study is already assigned to this radiologist';
  return null;
}

/**
 * PUT /worklist/assign/radiologist. TO_READ items become ASSIGNED; ASSIGNED, DRAFTED and IN_REVIEW
 * items change hands (status kept). Items the caller may not change, or whose facility the
 * radiologist does not work for, are skipped with a reason. The radiologist is notified once per item.
 */
export async function assignRadiologist(
  tx: TTx,
  input: { scope: TScope; worklistIds: string[]; assigneeId: string },
): Promise<TBulkResult & { notifications: TCreatedNotification[] }> {
  const { scope } = input;
  const assignee = await loadAssignee(tx, scope, input.assigneeId);
  const rows = await lockVisibleStudies(tx, scope, input.worklistIds);
  const result: TBulkResult & { notifications: TCreatedNotification[] } = {
    updatedIds: [],
    skipped: [],
    notifications: [],
  };
  const now = new Date();
  for (const study of rows) {
    const refusal =
      assignRefusal(scope, study, assignee.id) ??
      (assignee.facilityIds.has(study.facilityId) ? null : 'The radiologist does not work for this facility');
    if (refusal) {
      result.skipped.push({ id: study.id, reason: refusal });
      continue;
    }
    const set = { lastAssignedUserId: assignee.id, assignedAt: now };
    if (study.status === 'TO_READ') {
      const moved = await applyTransition(tx, {
        study,
        event: 'assign',
        byUserId: scope.principal.userId,
        set,
      });
      if (!moved.ok) {
        result.skipped.push({ id: study.id, reason: moved.reason });
        continue;
      }
    } else if (['ASSIGNED', 'DRAFTED', 'IN_REVIEW'].includes(study.status)) {
      await tx.update(studies).set(set).where(eq(studies.id, study.id));
    } else {
      result.skipped.push({
        id: study.id,
        reason: `The study is ${study.status.replaceAll('_', ' ').toLowerCase()} and cannot be assigned`,
      });
      continue;
    }
    result.updatedIds.push(study.id);
    if (assignee.id !== scope.principal.userId) {
      const created = await insertNotifications(tx, {
        organisationId: scope.organisationId,
        userIds: [assignee.id],
        type: 'worklist-assigned',
        title: 'A study was assigned to you',
        body: [study.patientName, study.studyDescription].filter(Boolean).join(' — ') || null,
        data: { worklist_id: study.id, facility_fk: study.facilityId },
      });
      result.notifications.push(...created);
    }
  }
  return result;
}

/**
 * PUT /worklist/unassign/radiologist: ASSIGNED or DRAFTED items without report content go back to
 * TO_READ and lose their radiologist; anything else is skipped with the reason.
 */
export async function unassignRadiologist(
  tx: TTx,
  input: { scope: TScope; worklistIds: string[] },
): Promise<TBulkResult> {
  const { scope } = input;
  const rows = await lockVisibleStudies(tx, scope, input.worklistIds);
  const result: TBulkResult = { updatedIds: [], skipped: [] };
  for (const study of rows) {
    if (!canWorklist(scope.principal, 'unassign', study)) {
      result.skipped.push({ id: study.id, reason: 'You may not unassign this study' });
      continue;
    }
    const moved = await applyTransition(tx, {
      study,
      event: 'unassign',
      byUserId: scope.principal.userId,
      set: { lastAssignedUserId: null, assignedAt: null },
    });
    if (moved.ok) result.updatedIds.push(study.id);
    else result.skipped.push({ id: study.id, reason: moved.reason });
  }
  return result;
}
