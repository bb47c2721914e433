import { paginate, type TTemplate, type TTemplateListQuery, type TTemplateListResponse } from '@ris/domain';
import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { templates, users } from '../../db/schema/index.ts';
import { containsFolded, folded } from '../../db/text-search.ts';
import { templateAbilities } from './templates.policy.ts';

export type TTemplateRow = typeof templates.$inferSelect;

const isDefault = and(eq(templates.scope, 'DEFAULT'), isNull(templates.organisationId));

function organisationTemplates(organisationId: string): SQL | undefined {
  return and(eq(templates.scope, 'ORGANISATION'), eq(templates.organisationId, organisationId));
}

function ownTemplates(scope: TScope): SQL | undefined {
  return and(
    eq(templates.scope, 'USER'),
    eq(templates.organisationId, scope.organisationId),
    eq(templates.ownerUserId, scope.principal.userId),
  );
}

/**
 * A single template the caller may open: DEFAULT ones, their organisation's, their own, and (for an
 * admin) every USER template of the organisation.
 */
export function readableTemplates(scope: TScope): SQL {
  const userTemplates =
    scope.principal.role === 'ADMIN'
      ? and(eq(templates.scope, 'USER'), eq(templates.organisationId, scope.organisationId))
      : ownTemplates(scope);
  return or(isDefault, organisationTemplates(scope.organisationId), userTemplates) ?? sql`false`;
}

/**
 * The rows of a template list. `manage` (the templates screen): an admin lists DEFAULT ones and
 * every ORGANISATION and USER template of the organisation; anyone else only their own (spec §6).
 * `insert` (the editor's picker): own, ORGANISATION and DEFAULT templates, ACTIVE ones only.
 */
export function listedTemplates(scope: TScope, purpose: TTemplateListQuery['purpose']): SQL {
  if (purpose === 'insert') {
    return (
      and(
        eq(templates.status, 'ACTIVE'),
        or(isDefault, organisationTemplates(scope.organisationId), ownTemplates(scope)),
      ) ?? sql`false`
    );
  }
  if (scope.principal.role === 'ADMIN') return readableTemplates(scope);
  return ownTemplates(scope) ?? sql`false`;
}

function filters(query: TTemplateListQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.search) {
    conditions.push(
      containsFolded(
        folded(sql`${templates.name} || ' ' || coalesce(${templates.bodyPart}, '')`),
        query.search,
      ),
    );
  }
  if (query.name) conditions.push(containsFolded(folded(templates.name), query.name));
  if (query.body_part) {
    conditions.push(containsFolded(folded(sql`coalesce(${templates.bodyPart}, '')`), query.body_part));
  }
  if (query.modality) conditions.push(eq(templates.modalityGroup, query.modality));
  if (query.scopes.length > 0) conditions.push(inArray(templates.scope, query.scopes));
  if (query.by_user_ids.length > 0) conditions.push(inArray(templates.ownerUserId, query.by_user_ids));
  return conditions;
}

/** A template as the API sends it, with what the caller may do with it. */
export function presentTemplate(
  row: TTemplateRow,
  createdByDisplayName: string | null,
  principal: TPrincipal,
): TTemplate {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    modality: row.modalityGroup,
    body_part: row.bodyPart,
    content: row.content,
    status: row.status,
    organisation_id: row.organisationId,
    owner_user_id: row.ownerUserId,
    created_by: row.createdBy,
    created_by_display_name: createdByDisplayName,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    abilities: templateAbilities(principal, row),
  };
}

/** A page of templates, ordered by name (case- and accent-insensitively), then id. */
export async function listTemplates(
  db: TDbOrTx,
  scope: TScope,
  query: TTemplateListQuery,
): Promise<TTemplateListResponse> {
  const where = and(listedTemplates(scope, query.purpose), ...filters(query));
  const [rows, total] = await Promise.all([
    db
      .select({ template: templates, createdBy: users.displayName })
      .from(templates)
      .leftJoin(users, eq(users.id, templates.createdBy))
      .where(where)
      .orderBy(asc(folded(templates.name)), asc(templates.id))
      .limit(query.limit)
      .offset(query.offset),
    db.$count(templates, where),
  ]);
  return {
    ...paginate(total, query.limit, query.offset),
    items: rows.map((row) => presentTemplate(row.template, row.createdBy, scope.principal)),
  };
}

/** One template the caller may open (optionally locked for a change), or null. */
export async function findReadableTemplate(
  db: TDbOrTx,
  scope: TScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TTemplateRow | null> {
  const query = db
    .select()
    .from(templates)
    .where(and(eq(templates.id, id), readableTemplates(scope)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** The display name of a template's author (for the response). */
export async function creatorName(db: TDbOrTx, row: TTemplateRow): Promise<string | null> {
  if (!row.createdBy) return null;
  const [user] = await db
    .select({ displayName: users.displayName })
    .from(users)
    .where(eq(users.id, row.createdBy));
  return user?.displayName ?? null;
}
