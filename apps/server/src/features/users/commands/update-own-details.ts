// POST /user with id = oneself, by someone who does not administer users (a radiologist, a
// transcriptionist, a referring physician): their own names, display name, a radiologist's
// description and signature. What decides access (role, status, user type, facilities) and the
// e-mail they sign in with stay the administrators' to change.
import { eq } from 'drizzle-orm';
import type { TTx } from '../../../db/client.ts';
import { radiologistDetails, users } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { loadUserFacts } from '../../../auth/present-user.ts';
import { recordUserAdminEvent } from '../user-audit.ts';
import { facilityIdsOf, findUserRow } from '../users.queries.ts';
import {
  assertNotOwnAccess,
  signatureChange,
  storeSignature,
  type TSaveUserInput,
  type TSaveUserResult,
} from './save-user.ts';

const refused = (field: string, message: string) =>
  new AppError('FORBIDDEN', `${field}: ${message}`, { field });

export async function updateOwnDetails(tx: TTx, input: TSaveUserInput): Promise<TSaveUserResult> {
  const { scope, fields } = input;
  const row = await findUserRow(tx, scope.principal.userId);
  if (!row || row.organisationId !== scope.organisationId) throw AppError.notFound('User');
  const facts = (await loadUserFacts(tx, [row.id])).get(row.id);
  const current = {
    role: row.role,
    userType: row.role === 'RADIOLOGIST' ? (facts?.radiologist?.userType ?? 'RADIOLOGIST') : null,
    facilityIds: await facilityIdsOf(tx, row),
  };
  assertNotOwnAccess(input, { row, facilityIds: current.facilityIds }, current);
  if (fields.organisation_fk !== undefined && fields.organisation_fk !== row.organisationId) {
    throw refused('organisation_fk', 'you may not change your own organisation');
  }
  if (fields.email !== undefined && fields.email.trim().toLowerCase() !== row.email.toLowerCase()) {
    throw refused('email', 'the e-mail you sign in with is changed by an administrator');
  }
  const radiologist = row.role === 'RADIOLOGIST';
  const description = fields.radiologist_description?.replace(/\r\n?/g, '\n').trim();
  if (description !== undefined && !radiologist) {
    throw new AppError('VALIDATION_FAILED', 'radiologist_description: only a radiologist has a description', {
      field: 'radiologist_description',
    });
  }
  if ((input.signature || fields.delete_signature) && !radiologist) {
    throw new AppError('VALIDATION_FAILED', 'signature_file: only a radiologist signs reports', {
      field: 'signature_file',
    });
  }
  const signatureFileId = await storeSignature(tx, input);
  await tx
    .update(users)
    .set({
      updatedAt: new Date(),
      ...(fields.first_name !== undefined ? { firstName: fields.first_name } : {}),
      ...(fields.last_name !== undefined ? { lastName: fields.last_name } : {}),
      ...(fields.display_name !== undefined ? { displayName: fields.display_name } : {}),
      ...signatureChange(signatureFileId, fields),
    })
    .where(eq(users.id, row.id));
  if (description !== undefined && current.userType) {
    await tx
      .insert(radiologistDetails)
      .values({ userId: row.id, userType: current.userType, description: description || null })
      .onConflictDoUpdate({ target: radiologistDetails.userId, set: { description: description || null } });
  }
  await recordUserAdminEvent(tx, {
    action: 'user.updated',
    actorUserId: row.id,
    organisationId: scope.organisationId,
    subjectUserId: row.id,
    origin: input.origin,
    data: {
      fields: Object.keys(fields).filter((key) => key !== 'by_user_id' && key !== 'id'),
      ...(input.signature ? { signature: 'replaced' } : {}),
    },
  });
  return { userId: row.id, created: false, invitation: null, accessChanged: false };
}
