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
