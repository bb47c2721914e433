import type { TMacro, TRole } from '@ris/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { macros, users } from '../../db/schema/index.ts';
import { macroAbilities } from './macros.policy.ts';

export type TMacroRow = typeof macros.$inferSelect;
export type TMacroOwner = { id: string; role: TRole | null };
/** A macro with its owner (who decides what the caller may do with it). */
export type TOwnedMacro = { macro: TMacroRow; owner: TMacroOwner };

/** A macro as the API sends it, with what the caller may do with it. */
export function presentMacro(row: TMacroRow, owner: TMacroOwner, principal: TPrincipal): TMacro {
  return {
    id: row.id,
    short_key: row.shortKey,
    value: row.value,
    user_fk: row.userId,
    display_name: row.displayName,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    abilities: macroAbilities(principal, owner),
  };
}

/** A user of the caller's organisation (whose macros are asked for), or null. */
export async function findOrganisationUser(
  db: TDbOrTx,
  scope: TScope,
  userId: string,
): Promise<TMacroOwner | null> {
  const [row] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, scope.organisationId)));
  return row ?? null;
}

/** All of a user's macros, by short key (case-insensitively). */
export async function listMacros(db: TDbOrTx, userId: string): Promise<TMacroRow[]> {
  return db
    .select()
    .from(macros)
    .where(eq(macros.userId, userId))
    .orderBy(asc(sql`lower(${macros.shortKey})`), asc(macros.id))
    .limit(1000);
}

/** A macro whose owner belongs to the caller's organisation (optionally locked), or null. */
export async function findMacro(
  db: TDbOrTx,
  scope: TScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<{ macro: TMacroRow; owner: TMacroOwner } | null> {
  const query = db
    .select({ macro: macros, owner: { id: users.id, role: users.role } })
    .from(macros)
    .innerJoin(users, eq(users.id, macros.userId))
    .where(and(eq(macros.id, id), eq(users.organisationId, scope.organisationId)));
  const [row] = options.forUpdate ? await query.for('update', { of: macros }) : await query;
  return row ?? null;
}
