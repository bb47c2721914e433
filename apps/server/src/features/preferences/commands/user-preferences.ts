import type { TPreferencesPatch, TUserPreferences } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TDb, TDbOrTx } from '../../../db/client.ts';
import { userPreferences } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { canUserPreferences, type TUserPreferenceAction } from '../preferences.policy.ts';
import { presentUserPreferences } from '../preferences.presenter.ts';
import { findOrganisationMember, loadPreferenceRows } from '../preferences.queries.ts';

const REFUSALS: Record<TUserPreferenceAction, string> = {
  read: 'user: you may read only your own preferences',
  write: 'user: you may change only your own preferences',
};

/** The user whose preferences are asked for: of the caller's organisation (404), per the policy (403). */
export async function loadPreferenceOwner(
  db: TDbOrTx,
  scope: TScope,
  userId: string,
  action: TUserPreferenceAction,
): Promise<{ id: string }> {
  const owner = await findOrganisationMember(db, scope, userId);
  if (!owner) throw new AppError('NOT_FOUND', 'user: user not found', { field: 'user' });
  if (!canUserPreferences(scope.principal, owner, action)) {
    throw new AppError('FORBIDDEN', REFUSALS[action], { field: 'user' });
  }
  return owner;
}

/** GET /user/preference/{user}: resolved within the caller's organisation (the owner's, by the load). */
export async function readUserPreferences(
  db: TDbOrTx,
  scope: TScope,
  userId: string,
): Promise<TUserPreferences> {
  const owner = await loadPreferenceOwner(db, scope, userId, 'read');
  const rows = await loadPreferenceRows(db, owner.id, scope.organisationId);
  return presentUserPreferences({ userId: owner.id, organisationId: scope.organisationId }, rows);
}

/**
 * PUT /user/preference/{user}: replaces the user's own USER document (a field left out is inherited
 * again) and answers the preferences resolved afresh. Last write wins.
 */
export async function saveUserPreferences(
  db: TDb,
  scope: TScope,
  userId: string,
  document: TPreferencesPatch,
): Promise<TUserPreferences> {
  return db.transaction(async (tx) => {
    const owner = await loadPreferenceOwner(tx, scope, userId, 'write');
    await tx
      .insert(userPreferences)
      .values({ scope: 'USER', userId: owner.id, settings: document })
      .onConflictDoUpdate({
        target: userPreferences.userId,
        set: { settings: document, updatedAt: sql`now()` },
      });
    const rows = await loadPreferenceRows(tx, owner.id, scope.organisationId);
    return presentUserPreferences({ userId: owner.id, organisationId: scope.organisationId }, rows);
  });
}
