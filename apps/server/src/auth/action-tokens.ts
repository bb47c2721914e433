import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { authActionTokens, type TAuthActionKind } from '../db/schema/index.ts';
import { expiredActionCode, invalidActionCode } from './auth-errors.ts';
import { hashToken, randomToken } from './secrets.ts';

/** Creates a one-time link token (stored hashed) and returns the token for the link. */
export async function createActionToken(
  db: TDbOrTx,
  input: { userId: string; kind: TAuthActionKind; ttlMinutes: number; ip: string | null },
): Promise<string> {
  const token = randomToken();
  await db.insert(authActionTokens).values({
    userId: input.userId,
    kind: input.kind,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + input.ttlMinutes * 60_000),
    ip: input.ip,
  });
  return token;
}

/**
 * Locks an unused, unexpired token of `kind` inside the caller's transaction and marks it used:
 * the caller's work and the use commit together, so a failed attempt (e.g. a weak new password)
 * leaves the link usable. Throws auth/expired-action-code or auth/invalid-action-code.
 */
export async function useActionToken(
  tx: TDbOrTx,
  token: string,
  kind: TAuthActionKind,
  beforeUse?: (userId: string) => Promise<void>,
): Promise<{ userId: string }> {
  const [row] = await tx
    .select({
      id: authActionTokens.id,
      userId: authActionTokens.userId,
      used: sql<boolean>`${authActionTokens.usedAt} is not null`,
      expired: sql<boolean>`${authActionTokens.expiresAt} <= now()`,
    })
    .from(authActionTokens)
    .where(and(eq(authActionTokens.tokenHash, hashToken(token)), eq(authActionTokens.kind, kind)))
    .for('update');
  if (!row || row.used) throw invalidActionCode();
  if (row.expired) throw expiredActionCode();
  if (beforeUse) await beforeUse(row.userId);
  await tx
    .update(authActionTokens)
    .set({ usedAt: sql`now()` })
    .where(eq(authActionTokens.id, row.id));
  return { userId: row.userId };
}

/**
 * Marks every unused token of a user as used: of one kind (after a password reset, older reset links
 * die), or of every kind when `kind` is omitted (a disabled account keeps no working link).
 */
export async function retireActionTokens(tx: TDbOrTx, userId: string, kind?: TAuthActionKind): Promise<void> {
  await tx
    .update(authActionTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(authActionTokens.userId, userId),
        kind === undefined ? undefined : eq(authActionTokens.kind, kind),
        isNull(authActionTokens.usedAt),
      ),
    );
}
