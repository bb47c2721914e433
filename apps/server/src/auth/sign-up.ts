import {
  PASSWORD_RESET_PATH,
  SIGN_UP_CLOSED_MESSAGE,
  SIGN_UP_COMPLETE_MESSAGE,
  type TSignUpRequest,
} from '@ris/domain';
import type { TResponseEnd } from '../integrations/mail/deferred-mail.ts';
import type { TAuthContext } from './auth-context.ts';
import { authError } from './auth-errors.ts';
import { existingAccountMail } from './auth-mails.ts';
import { recordAuthEvent, type TRequestOrigin } from './audit.ts';
import { assertPasswordAllowed } from './password-policy.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { findUserByEmail } from './sign-in.ts';
import { users } from '../db/schema/index.ts';

/**
 * The one answer of a sign-up, whether the address was new or not (no account enumeration): the
 * account has no organisation until an administrator adds it, so it says who to ask.
 */
export const SIGN_UP_MESSAGE = SIGN_UP_COMPLETE_MESSAGE;

function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error && 'cause' in error ? error.cause : error;
  return typeof cause === 'object' && cause !== null && 'code' in cause && cause.code === '23505';
}

/**
 * POST /auth/sign-up: a user with no organisation and no role (verification refuses them until an
 * admin assigns both). An address that already has an account gets the same answer and the same
 * argon2 work, and its owner gets an e-mail; with AUTH_REVEAL_ACCOUNT_ERRORS it is a 409
 * auth/email-already-in-use instead.
 */
export async function signUp(
  ctx: TAuthContext,
  input: TSignUpRequest,
  origin: TRequestOrigin,
  response?: TResponseEnd,
): Promise<{ message: string }> {
  if (!ctx.config.signupEnabled) {
    throw authError('auth/operation-not-allowed', SIGN_UP_CLOSED_MESSAGE);
  }
  const email = input.email.trim().toLowerCase();
  assertPasswordAllowed(ctx.policy, input.password, email);
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) return answerExisting(ctx, existing.id, email, input.password, origin, response);

  const passwordHash = await hashPassword(input.password);
  const firstName = input.first_name ?? '';
  const lastName = input.last_name ?? '';
  try {
    await ctx.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email,
          passwordHash,
          firstName,
          lastName,
          displayName: input.display_name ?? [firstName, lastName].filter(Boolean).join(' '),
        })
        .returning({ id: users.id });
      await recordAuthEvent(tx, { action: 'auth.sign_up', actorUserId: user?.id ?? null, origin });
    });
  } catch (error) {
    // Two sign-ups for the same address at once: the loser is told what an existing address is told.
    if (!isUniqueViolation(error)) throw error;
    const winner = await findUserByEmail(ctx.db, email);
    if (!winner) throw error;
    return answerExisting(ctx, winner.id, email, null, origin, response);
  }
  return { message: SIGN_UP_MESSAGE };
}

async function answerExisting(
  ctx: TAuthContext,
  userId: string,
  email: string,
  password: string | null,
  origin: TRequestOrigin,
  response?: TResponseEnd,
): Promise<{ message: string }> {
  await recordAuthEvent(ctx.db, { action: 'auth.sign_up_existing_email', subjectUserId: userId, origin });
  if (ctx.config.revealAccountErrors) {
    throw authError('auth/email-already-in-use', 'An account with this e-mail address already exists.');
  }
  // The same argon2 cost as hashing a new password, so timing does not tell the cases apart.
  if (password !== null) await verifyPassword(await ctx.dummyPasswordHash(), password);
  ctx.mail.dispatch(existingAccountMail(email, `${ctx.publicUrl}${PASSWORD_RESET_PATH}`), response);
  return { message: SIGN_UP_MESSAGE };
}
