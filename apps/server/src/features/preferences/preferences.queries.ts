import { and, eq, or } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { userPreferences, users } from '../../db/schema/index.ts';

export type TPreferenceRow = typeof userPreferences.$inferSelect;

/** The stored documents behind one user's preferences (either may be missing). */
export type TPreferenceRows = { user: TPreferenceRow | null; organisation: TPreferenceRow | null };

/** A user of the caller's organisation, or null (another organisation's user is not found). */
export async function findOrganisationMember(
  db: TDbOrTx,
  scope: TScope,
  userId: string,
): Promise<{ id: string } | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, scope.organisationId)));
  return row ?? null;
}

/** The user's own document and their organisation's, in one query. */
export async function loadPreferenceRows(
  db: TDbOrTx,
  userId: string,
  organisationId: string,
): Promise<TPreferenceRows> {
  const rows = await db
    .select()
    .from(userPreferences)
    .where(
      or(
        and(eq(userPreferences.scope, 'USER'), eq(userPreferences.userId, userId)),
        and(eq(userPreferences.scope, 'ORGANISATION'), eq(userPreferences.organisationId, organisationId)),
      ),
    );
  return {
    user: rows.find((row) => row.scope === 'USER') ?? null,
    organisation: rows.find((row) => row.scope === 'ORGANISATION') ?? null,
  };
}
