// One-time links an administrator starts for someone else: the invitation of a new user and a
// password reset for a user they manage. Both are password_reset action tokens, so the link opens
// the web app's reset page (PASSWORD_RESET_PATH?token=…), which posts it to
// /auth/password-reset/confirm: the person chooses their own password there, and no administrator
// ever sees or types it. A new link retires the user's earlier ones.
import type { TDbOrTx } from '../db/client.ts';
import type { TMailMessage } from '../integrations/mail/mailer.ts';
import { actionLink } from './auth-mails.ts';
import { createActionToken, retireActionTokens } from './action-tokens.ts';

/** How long an invitation link works: a week, since people do not read mail at once. */
export const INVITATION_TTL_MINUTES = 7 * 24 * 60;

export type TSetPasswordLink = { link: string; expiresAt: Date; ttlMinutes: number };

/**
 * Retires the user's unused password links and makes a new one (inside the caller's transaction:
 * the link exists only if the change that asked for it commits).
 */
export async function issueSetPasswordLink(
  tx: TDbOrTx,
  input: { publicUrl: string; userId: string; ttlMinutes: number; ip: string | null },
): Promise<TSetPasswordLink> {
  await retireActionTokens(tx, input.userId, 'password_reset');
  const token = await createActionToken(tx, {
    userId: input.userId,
    kind: 'password_reset',
    ttlMinutes: input.ttlMinutes,
    ip: input.ip,
  });
  return {
    link: actionLink(input.publicUrl, 'password_reset', token),
    expiresAt: new Date(Date.now() + input.ttlMinutes * 60_000),
    ttlMinutes: input.ttlMinutes,
  };
}

const days = (minutes: number) =>
  minutes >= 24 * 60 && minutes % (24 * 60) === 0
    ? `${minutes / (24 * 60)} day${minutes === 24 * 60 ? '' : 's'}`
    : `${minutes} minutes`;

/** The invitation of a new user: who invited them, to what, and the link to choose a password. */
export function invitationMail(input: {
  to: string;
  invitedBy: string;
  organisationName: string;
  link: TSetPasswordLink;
}): TMailMessage {
  return {
    to: input.to,
    subject: `You are invited to ${input.organisationName} on RIS`,
    text: [
      `${input.invitedBy} has created an RIS account for you at ${input.organisationName}.`,
      `Open this link within ${days(input.link.ttlMinutes)} to choose your password. It works once.`,
      'Then sign in with this e-mail address and that password.',
      '',
      input.link.link,
    ].join('\n'),
  };
}

/** A password reset an administrator started for the user. */
export function adminPasswordResetMail(input: {
  to: string;
  requestedBy: string;
  link: TSetPasswordLink;
}): TMailMessage {
  return {
    to: input.to,
    subject: 'Reset your RIS password',
    text: [
      `${input.requestedBy}, an administrator of your organisation, started a password reset for your RIS account.`,
      `Open this link within ${days(input.link.ttlMinutes)} to choose a new password. It works once.`,
      'Until you do, your current password keeps working.',
      '',
      input.link.link,
    ].join('\n'),
  };
}
