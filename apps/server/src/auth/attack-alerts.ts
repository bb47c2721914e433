import { and, eq, ne, sql } from 'drizzle-orm';
import { queryRows } from '../db/rows.ts';
import { notifications, users } from '../db/schema/index.ts';
import type { TResponseEnd } from '../integrations/mail/deferred-mail.ts';
import type { TAuthContext } from './auth-context.ts';
import { accountUnderAttackMail } from './auth-mails.ts';
import { recordAuthEvent, type TRequestOrigin } from './audit.ts';
import type { TUserRow } from './present-user.ts';

/** The type of the in-app notification of an account under attack. */
export const SIGN_IN_ATTACK_NOTIFICATION = 'account-sign-in-attack';

/** Each stored notification reaches its user's open apps (realtime user-notification). */
function announce(ctx: TAuthContext, created: (typeof notifications.$inferSelect)[]): void {
  for (const row of created) {
    if (!row.organisationId) continue;
    ctx.events.emit('notification.created', {
      organisationId: row.organisationId,
      userId: row.userId,
      notification: {
        id: row.id,
        type: row.type,
        title: row.title,
        body: row.body,
        data: row.data,
        created_at: row.createdAt.toISOString(),
      },
    });
  }
}

/**
 * Claims the alert of an account for this window: true for the one caller that may send it, false
 * while an alert of the last `windowMinutes` stands. One statement, so concurrent callers (replicas,
 * parallel guesses) cannot both win.
 */
async function claimAlert(ctx: TAuthContext, userId: string, windowMinutes: number): Promise<boolean> {
  const rows = await queryRows<{ user_id: string }>(
    ctx.db,
    sql`INSERT INTO auth_attack_alerts (user_id, sent_at) VALUES (${userId}, now())
        ON CONFLICT (user_id) DO UPDATE SET sent_at = now()
        WHERE auth_attack_alerts.sent_at <= now() - make_interval(mins => ${windowMinutes})
        RETURNING user_id`,
  );
  return rows.length > 0;
}

/**
 * Tells the owner of an account, and the active admins of its organisation, that its password is
 * being guessed (sign-ins are being delayed): an e-mail each and an in-app notification each, at most
 * once per failure window whatever the number of guesses, so an attacker cannot turn it into spam.
 * Everything happens after `response` has been sent: the answer to a guess takes no longer, and says
 * no more, whether the account exists or an alert went out.
 */
export function alertAccountUnderAttack(
  ctx: TAuthContext,
  user: TUserRow,
  origin: TRequestOrigin,
  response?: TResponseEnd,
): void {
  const windowMinutes = ctx.throttle.windowMinutes;
  ctx.mail.dispatch(async () => {
    if (!(await claimAlert(ctx, user.id, windowMinutes))) return null;
    const admins = user.organisationId
      ? await ctx.db
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(
            and(
              eq(users.organisationId, user.organisationId),
              eq(users.role, 'ADMIN'),
              eq(users.status, 'ACTIVE'),
              ne(users.id, user.id),
            ),
          )
      : [];
    const recipients = [...(user.status === 'ACTIVE' ? [user.id] : []), ...admins.map((admin) => admin.id)];
    const ip = origin.ip ?? 'unknown';
    if (recipients.length > 0) {
      const created = await ctx.db
        .insert(notifications)
        .values(
          recipients.map((userId) => ({
            organisationId: user.organisationId,
            userId,
            type: SIGN_IN_ATTACK_NOTIFICATION,
            title: 'Repeated failed sign-ins',
            body:
              userId === user.id
                ? 'Someone has been entering wrong passwords for your account. Browsers you signed in with before are not affected; if it was not you, tell your administrator.'
                : `Someone has been entering wrong passwords for ${user.email}. Sign-ins from unknown browsers are being slowed down.`,
            data: { account_user_id: user.id, ip },
          })),
        )
        .returning();
      announce(ctx, created);
    }
    await recordAuthEvent(ctx.db, {
      action: 'auth.account_under_attack',
      subjectUserId: user.id,
      organisationId: user.organisationId,
      origin,
      data: { admins_told: admins.length },
    });
    const mails = [
      ...(user.status === 'ACTIVE' ? [accountUnderAttackMail(user.email, user.email, ip, 'owner')] : []),
      ...admins.map((admin) => accountUnderAttackMail(admin.email, user.email, ip, 'admin')),
    ].map((mail) => ({ ...mail, organisationId: user.organisationId }));
    const [first, ...others] = mails;
    for (const mail of others) ctx.mail.dispatch(mail);
    return first ?? null;
  }, response);
}
