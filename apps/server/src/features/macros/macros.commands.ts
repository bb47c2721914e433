import type { TCreateMacroBody, TUpdateMacroBody } from '@ris/domain';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TDb, TDbOrTx } from '../../db/client.ts';
import { macros } from '../../db/schema/index.ts';
import { reportHtmlToText, sanitizeReportHtml } from '../../html/sanitize-report-html.ts';
import { AppError } from '../../http/app-error.ts';
import { sqlState } from '../../http/database-errors.ts';
import { canMacro } from './macros.policy.ts';
import { findMacro, findOrganisationUser, type TMacroOwner, type TOwnedMacro } from './macros.queries.ts';

/** The sanitised value; a value with nothing left to insert is a 400 naming `value`. */
export function cleanMacroValue(value: string): string {
  // No report id: a macro holds no images (it is inserted into many reports).
  const clean = sanitizeReportHtml(value);
  const empty = reportHtmlToText(clean) === '' && !/<(img|hr)\b|data-type="page-break"/.test(clean);
  if (empty) {
    throw new AppError('VALIDATION_FAILED', 'value: the macro has no text left after sanitising', {
      field: 'value',
    });
  }
  return clean;
}

function duplicate(scope: TScope, ownerId: string, shortKey: string): AppError {
  const who = ownerId === scope.principal.userId ? 'You already have' : 'This user already has';
  return new AppError('CONFLICT', `${who} a macro with the short key ${shortKey}`, { field: 'short_key' });
}

/** 409 when the owner already has the short key (case-insensitively), apart from `exceptId`. */
async function assertShortKeyFree(
  db: TDbOrTx,
  scope: TScope,
  ownerId: string,
  shortKey: string,
  exceptId?: string,
): Promise<void> {
  const [taken] = await db
    .select({ id: macros.id })
    .from(macros)
    .where(
      and(
        eq(macros.userId, ownerId),
        sql`lower(${macros.shortKey}) = lower(${shortKey})`,
        exceptId ? ne(macros.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw duplicate(scope, ownerId, shortKey);
}

/**
 * The check above answers the common case with a clear message; two writes racing past it meet the
 * unique index macros_user_short_key_uq (user_id, lower(short_key)), whose violation is the same 409.
 * `ownerId` is read after the write failed (an update learns the owner inside its transaction).
 */
async function withShortKeyConflict<T>(
  scope: TScope,
  ownerId: () => string,
  shortKey: string | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (shortKey !== undefined && sqlState(error) === '23505') throw duplicate(scope, ownerId(), shortKey);
    throw error;
  }
}

function refuse(field?: string): never {
  const message = field
    ? `${field}: you may manage only your own macros`
    : 'You may manage only your own macros';
  throw new AppError('FORBIDDEN', message, field ? { field } : undefined);
}

/** The owner of a user's macros, within the caller's organisation (404) and policy (403). */
export async function loadMacroOwner(
  db: TDbOrTx,
  scope: TScope,
  userId: string,
  field: string,
): Promise<TMacroOwner> {
  const owner = await findOrganisationUser(db, scope, userId);
  if (!owner) throw new AppError('NOT_FOUND', `${field}: user not found`, { field });
  if (!canMacro(scope.principal, owner)) refuse(field);
  return owner;
}

/** POST /radiologist/macro. */
export async function createMacro(db: TDb, scope: TScope, body: TCreateMacroBody): Promise<TOwnedMacro> {
  const owner = await loadMacroOwner(db, scope, body.user_fk, 'user_fk');
  const value = cleanMacroValue(body.value);
  await assertShortKeyFree(db, scope, owner.id, body.short_key);
  return withShortKeyConflict(
    scope,
    () => owner.id,
    body.short_key,
    async () => {
      const [row] = await db
        .insert(macros)
        .values({
          userId: owner.id,
          shortKey: body.short_key,
          value,
          displayName: body.display_name || null,
        })
        .returning();
      if (!row) throw new Error('macro insert returned nothing');
      return { macro: row, owner };
    },
  );
}

async function loadChangeable(db: TDbOrTx, scope: TScope, id: string, forUpdate: boolean) {
  const found = await findMacro(db, scope, id, { forUpdate });
  if (!found) throw AppError.notFound('Macro');
  if (!canMacro(scope.principal, found.owner)) refuse();
  return found;
}

/** PATCH /radiologist/macro/{id}: the fields given change; the owner never does. */
export async function updateMacro(
  db: TDb,
  scope: TScope,
  id: string,
  body: TUpdateMacroBody,
): Promise<TOwnedMacro> {
  let ownerId = scope.principal.userId;
  return withShortKeyConflict(
    scope,
    () => ownerId,
    body.short_key,
    async () =>
      db.transaction(async (tx) => {
        const { macro, owner } = await loadChangeable(tx, scope, id, true);
        ownerId = macro.userId;
        const value = body.value === undefined ? undefined : cleanMacroValue(body.value);
        if (body.short_key !== undefined) {
          await assertShortKeyFree(tx, scope, macro.userId, body.short_key, macro.id);
        }
        const changes: Partial<typeof macros.$inferInsert> = {
          ...(body.short_key !== undefined ? { shortKey: body.short_key } : {}),
          ...(value !== undefined ? { value } : {}),
          ...(body.display_name !== undefined ? { displayName: body.display_name || null } : {}),
        };
        if (Object.keys(changes).length === 0) return { macro, owner };
        const [row] = await tx.update(macros).set(changes).where(eq(macros.id, macro.id)).returning();
        if (!row) throw AppError.notFound('Macro');
        return { macro: row, owner };
      }),
  );
}

/** DELETE /radiologist/macro/{id}. */
export async function deleteMacro(db: TDb, scope: TScope, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { macro } = await loadChangeable(tx, scope, id, true);
    await tx.delete(macros).where(eq(macros.id, macro.id));
  });
}
