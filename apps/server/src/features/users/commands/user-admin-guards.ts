// Checks every user-administration write makes inside its transaction, under the organisation's
// lock: the caller is still who the token says, the organisation keeps an active admin, an e-mail
// address belongs to one account only.
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { organisations, users } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { sqlState } from '../../../http/database-errors.ts';

/**
 * Serialises the user-administration writes of one organisation (FOR NO KEY UPDATE: inserts that
 * merely reference the organisation are not held up). Two admins demoting each other at once then
 * run one after the other, and the second sees the first's change.
 */
export async function lockOrganisation(tx: TTx, scope: TScope): Promise<{ name: string }> {
  const [row] = await tx
    .select({ name: organisations.name })
    .from(organisations)
    .where(eq(organisations.id, scope.organisationId))
    .for('no key update');
  if (!row) throw AppError.notFound('Organisation');
  return row;
}

/**
 * The caller, as they stand now under the lock: a write that waited for the lock behind one that
 * demoted or disabled the caller is refused rather than done with powers they no longer have.
 * Returns the caller's name, for the mails the write sends.
 */
export async function assertCallerStillAdministers(tx: TTx, scope: TScope): Promise<{ name: string }> {
  const { principal } = scope;
  const [caller] = await tx
    .select({
      role: users.role,
      status: users.status,
      organisationId: users.organisationId,
      displayName: users.displayName,
      email: users.email,
    })
    .from(users)
    .where(eq(users.id, principal.userId));
  if (
    caller?.status !== 'ACTIVE' ||
    caller.role !== principal.role ||
    caller.organisationId !== principal.organisationId
  ) {
    throw new AppError('FORBIDDEN', 'Your role or status has just changed; sign in again to continue');
  }
  return { name: caller.displayName.trim() || caller.email };
}

/**
 * 409 naming `field` when `userId` is the organisation's last active admin (call it, under the
 * lock, before demoting or disabling an active admin).
 */
export async function assertNotLastActiveAdmin(
  tx: TTx,
  scope: TScope,
  userId: string,
  field: 'role' | 'status',
): Promise<void> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(
      and(
        eq(users.organisationId, scope.organisationId),
        eq(users.role, 'ADMIN'),
        eq(users.status, 'ACTIVE'),
        ne(users.id, userId),
      ),
    );
  if (Number(row?.count ?? 0) === 0) {
    throw new AppError(
      'CONFLICT',
      `${field}: this is the last active administrator of the organisation; make someone else an administrator first`,
      { field, reason: 'last-admin' },
    );
  }
}

export const emailTaken = () =>
  new AppError('CONFLICT', 'email: this e-mail address is already used by another account', {
    field: 'email',
  });

/** 409 naming email when another account has this address (case-insensitively). */
export async function assertEmailFree(tx: TTx, email: string, exceptUserId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`lower(${users.email}) = lower(${email})`,
        exceptUserId ? ne(users.id, exceptUserId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw emailTaken();
}

/**
 * The id of the account with this address (case-insensitively) that signing up made and no
 * organisation has taken in yet (no organisation, no role), locked for the transaction; else null.
 */
export async function unclaimedAccountOf(tx: TTx, email: string): Promise<string | null> {
  const [account] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(sql`lower(${users.email}) = lower(${email})`, isNull(users.organisationId), isNull(users.role)),
    )
    .for('update')
    .limit(1);
  return account?.id ?? null;
}

/** Runs a write; the unique index on lower(email) (a concurrent create) answers the same 409. */
export async function withEmailGuard<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === '23505') throw emailTaken();
    throw error;
  }
}
