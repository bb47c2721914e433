import {
  ZDeletedResponse,
  ZCreateTagBody,
  ZTag,
  ZTagList,
  ZTagListQuery,
  ZTagStudiesBody,
  ZUuid,
  ZWorklistTagList,
} from '@ris/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope, type TScope } from '../../access/scope.ts';
import { visibleStudies } from '../../access/studies-scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { studies, tags, users, worklistTags } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { assertActingAs } from '../../access/acting-as.ts';
import { canTag } from './tags.policy.ts';
import { listTags, listWorklistTags, presentTag, usableTags } from './tags.queries.ts';

const security = [{ bearerAuth: [] }];
const routeTags = ['tags'];

/** A user of the caller's organisation whose tags the caller may read (404 otherwise, 403 if not allowed). */
async function requireTagOwner(db: TDbOrTx, scope: TScope, userId: string, field: string): Promise<void> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, scope.organisationId)));
  if (!user) throw new AppError('NOT_FOUND', `${field}: user not found`, { field });
  if (!canTag(scope.principal, 'read-user-tags', { userId })) {
    throw new AppError('FORBIDDEN', `${field}: you may read only your own tags`, { field });
  }
}

/** Tags (spec §7): list, create, tag studies, list a user's worklist tags, remove one. */
export const tagRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/worklist/tag/all',
    {
      schema: {
        tags: routeTags,
        security,
        summary: 'Tags the user may use (organisation and own) and the default tags',
        querystring: ZTagListQuery,
        response: { 200: ZTagList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const query = request.query;
      if (query.organization_id && query.organization_id !== scope.organisationId) {
        throw new AppError('NOT_FOUND', 'organization_id: organisation not found', {
          field: 'organization_id',
        });
      }
      const userId = query.user_id ?? scope.principal.userId;
      if (userId !== scope.principal.userId) await requireTagOwner(db, scope, userId, 'user_id');
      const rows = await listTags(db, {
        organisationId: scope.organisationId,
        userId,
        search: query.search,
        types: query.types,
      });
      return {
        tags: rows.filter((row) => row.scope !== 'DEFAULT').map(presentTag),
        default_tags: rows.filter((row) => row.scope === 'DEFAULT').map(presentTag),
      };
    },
  );

  app.post(
    '/worklist/tag',
    {
      schema: {
        tags: routeTags,
        security,
        summary: 'Create a USER tag (or, for admins, an ORGANISATION tag)',
        body: ZCreateTagBody,
        response: { 201: ZTag, ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const body = request.body;
      assertActingAs(scope.principal, body.by_user_fk, 'by_user_fk');
      if (!canTag(scope.principal, 'create', { scope: body.type })) {
        throw new AppError('FORBIDDEN', `type: you may not create ${body.type.toLowerCase()} tags`, {
          field: 'type',
        });
      }
      const [duplicate] = await db
        .select({ id: tags.id })
        .from(tags)
        .where(
          and(
            usableTags(scope.organisationId, scope.principal.userId),
            eq(tags.scope, body.type),
            sql`lower(${tags.name}) = lower(${body.name})`,
          ),
        )
        .limit(1);
      if (duplicate)
        throw new AppError('CONFLICT', 'name: a tag with this name already exists', { field: 'name' });
      const [row] = await db
        .insert(tags)
        .values({
          organisationId: scope.organisationId,
          scope: body.type,
          name: body.name,
          colour: body.colour ?? null,
          createdBy: scope.principal.userId,
        })
        .returning();
      if (!row) throw new Error('tag insert returned nothing');
      return reply.status(201).send(presentTag(row));
    },
  );

  app.get(
    '/worklist/worklist-tags/:user_id',
    {
      schema: {
        tags: routeTags,
        security,
        summary: 'Tags a user put on worklist items the caller may see',
        params: z.object({ user_id: ZUuid }),
        response: { 200: ZWorklistTagList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      await requireTagOwner(db, scope, request.params.user_id, 'user_id');
      return { items: await listWorklistTags(db, scope, request.params.user_id) };
    },
  );

  app.post(
    '/worklist/worklist-tag/many',
    {
      schema: {
        tags: routeTags,
        security,
        summary: 'Put tags on worklist items (already present pairs are kept)',
        body: ZTagStudiesBody,
        response: { 201: ZWorklistTagList, ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const body = request.body;
      assertActingAs(scope.principal, body.by_user_id);
      if (!canTag(scope.principal, 'tag-studies'))
        throw new AppError('FORBIDDEN', 'You may not tag worklist items');
      const studyIds = [...new Set(body.worklist_ids)];
      const tagIds = [...new Set(body.tag_ids)];
      await db.transaction(async (tx) => {
        const visible = await tx
          .select({ id: studies.id })
          .from(studies)
          .where(and(inArray(studies.id, studyIds), visibleStudies(scope)));
        const missingStudies = studyIds.filter((id) => !visible.some((row) => row.id === id));
        if (missingStudies.length > 0) {
          throw new AppError(
            'NOT_FOUND',
            `worklist_ids: worklist items not found: ${missingStudies.join(', ')}`,
            {
              field: 'worklist_ids',
              ids: missingStudies,
            },
          );
        }
        const usable = await tx
          .select({ id: tags.id })
          .from(tags)
          .where(and(inArray(tags.id, tagIds), usableTags(scope.organisationId, scope.principal.userId)));
        const missingTags = tagIds.filter((id) => !usable.some((row) => row.id === id));
        if (missingTags.length > 0) {
          throw new AppError('NOT_FOUND', `tag_ids: tags not found: ${missingTags.join(', ')}`, {
            field: 'tag_ids',
            ids: missingTags,
          });
        }
        await tx
          .insert(worklistTags)
          .values(
            studyIds.flatMap((studyId) =>
              tagIds.map((tagId) => ({ studyId, tagId, userId: scope.principal.userId })),
            ),
          )
          .onConflictDoNothing();
      });
      const mine = await listWorklistTags(db, scope, scope.principal.userId);
      const items = mine.filter(
        (item) => studyIds.includes(item.worklist_id) && tagIds.includes(item.tag.id),
      );
      return reply.status(201).send({ items });
    },
  );

  app.delete(
    '/worklist/worklist-tag/:id',
    {
      schema: {
        tags: routeTags,
        security,
        summary: 'Remove a tag from a worklist item',
        params: z.object({ id: ZUuid }),
        response: { 200: ZDeletedResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const [row] = await db
        .select({ id: worklistTags.id, userId: worklistTags.userId })
        .from(worklistTags)
        .innerJoin(studies, eq(studies.id, worklistTags.studyId))
        .where(and(eq(worklistTags.id, request.params.id), visibleStudies(scope)));
      if (!row) throw AppError.notFound('Worklist tag');
      if (!canTag(scope.principal, 'remove-worklist-tag', { taggerId: row.userId })) {
        throw new AppError('FORBIDDEN', 'You may remove only the tags you put');
      }
      await db.delete(worklistTags).where(eq(worklistTags.id, row.id));
      return { id: row.id, deleted: true as const };
    },
  );
};
