import type { TResponseEnd } from '../integrations/mail/deferred-mail.ts';
import type { TAuthContext } from './auth-context.ts';
import { actionLink, emailLinkMail, passwordResetMail } from './auth-mails.ts';
import { createActionToken } from './action-tokens.ts';
import { recordAuthEvent, type TRequestOrigin } from './audit.ts';
import { findUserByEmail } from './sign-in.ts';

type TActionKind = 'password_reset' | 'email_link';

const KINDS = {
  password_reset: { audit: 'auth.password_reset_requested', compose: passwordResetMail },
  email_link: { audit: 'auth.email_link_requested', compose: emailLinkMail },
} as const;

/**
 * The request half of password reset and e-mail-link sign-in: look the address up and, only for an
 * active account, make a one-time token, audit it and mail the link. Token, audit and mail start
 * only once `response` has been sent, so a known address takes no longer to answer than an unknown
 * one; the caller returns the same neutral message either way.
 */
export async function mailActionLink(
  ctx: TAuthContext,
  kind: TActionKind,
  email: string,
  ttlMinutes: number,
  origin: TRequestOrigin,
  response?: TResponseEnd,
): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.status !== 'ACTIVE') return;
  ctx.mail.dispatch(async () => {
    const token = await createActionToken(ctx.db, { userId: user.id, kind, ttlMinutes, ip: origin.ip });
    await recordAuthEvent(ctx.db, {
      action: KINDS[kind].audit,
      subjectUserId: user.id,
      organisationId: user.organisationId,
      origin,
    });
    return {
      ...KINDS[kind].compose(user.email, actionLink(ctx.publicUrl, kind, token), ttlMinutes),
      organisationId: user.organisationId,
    };
  }, response);
}
