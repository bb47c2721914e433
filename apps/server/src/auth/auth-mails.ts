import {
  EMAIL_LINK_PATH,
  EMAIL_LINK_TOKEN_PARAM,
  PASSWORD_RESET_PATH,
  PASSWORD_RESET_TOKEN_PARAM,
} from '@ris/domain';
import type { TMailMessage } from '../integrations/mail/mailer.ts';

/**
 * The web app's page for a token: PUBLIC_URL + /forgot-password?token=… or /login?email_link_token=….
 * The page posts the token back (mail scanners only ever GET the link, which changes nothing).
 */
export function actionLink(publicUrl: string, kind: 'password_reset' | 'email_link', token: string): string {
  const [page, param] =
    kind === 'password_reset'
      ? [PASSWORD_RESET_PATH, PASSWORD_RESET_TOKEN_PARAM]
      : [EMAIL_LINK_PATH, EMAIL_LINK_TOKEN_PARAM];
  return `${publicUrl}${page}?${new URLSearchParams({ [param]: token }).toString()}`;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function mail(to: string, subject: string, lines: string[], link?: string): TMailMessage {
  const text = [...lines, ...(link ? ['', link] : [])].join('\n');
  const html = [
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`] : []),
  ].join('\n');
  return { to, subject, text, html };
}

export function passwordResetMail(to: string, link: string, ttlMinutes: number): TMailMessage {
  return mail(
    to,
    'Reset your RIS password',
    [
      'Someone (hopefully you) asked to reset the password of your RIS account.',
      `Open this link within ${ttlMinutes} minutes to choose a new password. It works once.`,
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ],
    link,
  );
}

export function emailLinkMail(to: string, link: string, ttlMinutes: number): TMailMessage {
  return mail(
    to,
    'Your RIS sign-in link',
    [
      `Open this link within ${ttlMinutes} minutes to sign in to RIS. It works once.`,
      'If you did not ask for it, ignore this e-mail.',
    ],
    link,
  );
}

export function existingAccountMail(to: string, resetLink: string): TMailMessage {
  return mail(
    to,
    'Someone tried to create an RIS account with your address',
    [
      'Someone tried to sign up for RIS with this e-mail address, which already has an account.',
      'If it was you, sign in with your existing password, or reset it here:',
    ],
    resetLink,
  );
}

/**
 * To the owner of an account whose password is being guessed, or to an admin of its organisation.
 * Says what happens (unknown browsers wait longer between attempts; browsers that signed in before
 * are not affected) and what to do; never the number of guesses or anything an attacker could use.
 */
export function accountUnderAttackMail(
  to: string,
  account: string,
  ip: string,
  reader: 'owner' | 'admin',
): TMailMessage {
  return mail(
    to,
    reader === 'owner'
      ? 'Repeated failed sign-ins to your RIS account'
      : `Repeated failed sign-ins to the RIS account ${account}`,
    reader === 'owner'
      ? [
          'Someone has entered wrong passwords for your RIS account several times (last from the address ' +
            `${ip}).`,
          'Sign-ins from browsers you have not used with RIS before now wait longer between attempts. ' +
            'Browsers you signed in with before are not affected.',
          'If it was you, nothing needs doing. If not, keep your password to yourself and tell your RIS administrator.',
        ]
      : [
          `Someone has entered wrong passwords for the RIS account ${account} several times (last from the address ${ip}).`,
          'Sign-ins to it from unknown browsers now wait longer between attempts; its owner can still sign in from browsers used before.',
          'If this was not its owner, consider blocking the address at your network edge.',
        ],
  );
}
