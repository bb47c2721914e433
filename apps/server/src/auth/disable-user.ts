import { eq } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { retireActionTokens } from './action-tokens.ts';
import { recordAuthEvent, type TRequestOrigin } from './audit.ts';
import { announceAfterCommit, revokeUserTokens } from './revocation.ts';

/**
 * Sets a user INACTIVE, ends every session and rejects their ID tokens at once on every replica,
 * retires every password-reset and e-mail sign-in link already sent, and audits who did it. The one
 * way the rest of the app disables an account.
 */
export async function disableUser(
  db: TDbOrTx,
  userId: string,
  by: { actorUserId: string | null; origin?: TRequestOrigin },
): Promise<void> {
  await db.transaction(async (tx) => {
    // Links first: a concurrent password reset locks its link, then the user (the same order).
    await retireActionTokens(tx, userId);
    const [user] = await tx
      .update(users)
      .set({ status: 'INACTIVE' })
      .where(eq(users.id, userId))
      .returning({ organisationId: users.organisationId });
    await revokeUserTokens(tx, userId, 'user_disabled');
    await recordAuthEvent(tx, {
      action: 'auth.user_disabled',
      actorUserId: by.actorUserId,
      subjectUserId: userId,
      organisationId: user?.organisationId ?? null,
      ...(by.origin ? { origin: by.origin } : {}),
    });
  });
  announceAfterCommit(db, userId);
}
