import {
  ZDeletedResponse,
  ZSaveTemplateBody,
  ZTemplate,
  ZTemplateListQuery,
  ZTemplateListResponse,
  ZUuid,
} from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { assertActingAs } from '../../access/acting-as.ts';
import { deleteTemplate, saveTemplate } from './templates.commands.ts';
import { canTemplate, templateRefusal } from './templates.policy.ts';
import { creatorName, findReadableTemplate, listTemplates, presentTemplate } from './templates.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['templates'];

/** Report templates (spec §7): list, open, create or update, delete. */
export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/radiologist/templates',
    {
      schema: {
        tags,
        security,
        summary: 'Templates for the templates screen (purpose=manage) or the editor’s picker (insert)',
        querystring: ZTemplateListQuery,
        response: { 200: ZTemplateListResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const query = request.query;
      if (query.organisation_id && query.organisation_id !== scope.organisationId) {
        throw new AppError('NOT_FOUND', 'organisation_id: organisation not found', {
          field: 'organisation_id',
        });
      }
      if (!canTemplate(scope.principal, 'use')) {
        throw new AppError('FORBIDDEN', templateRefusal('use', 'USER').message);
      }
      return listTemplates(db, scope, query);
    },
  );

  app.get(
    '/radiologist/template/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A template the caller may open',
        params: z.object({ id: ZUuid }),
        response: { 200: ZTemplate, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      // Whoever may not use templates (referring physicians) learns nothing, not even that one exists.
      if (!canTemplate(scope.principal, 'use')) throw AppError.notFound('Template');
      const row = await findReadableTemplate(db, scope, request.params.id);
      if (!row) throw AppError.notFound('Template');
      return presentTemplate(row, await creatorName(db, row), scope.principal);
    },
  );

  app.post(
    '/radiologist/template',
    {
      schema: {
        tags,
        security,
        summary: 'Create a template, or update one when id is given (content is sanitised)',
        body: ZSaveTemplateBody,
        response: { 200: ZTemplate, 201: ZTemplate, ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      assertActingAs(scope.principal, request.body.by_user_id);
      const { row, created } = await saveTemplate(db, scope, request.body);
      app.events.emit('vocabulary.changed', { organisationId: scope.organisationId, source: 'templates' });
      return reply
        .status(created ? 201 : 200)
        .send(presentTemplate(row, await creatorName(db, row), scope.principal));
    },
  );

  app.delete(
    '/radiologist/template/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a template (owner or admin; organisation templates: admin; default: never)',
        params: z.object({ id: ZUuid }),
        response: { 200: ZDeletedResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      await deleteTemplate(db, scope, request.params.id);
      app.events.emit('vocabulary.changed', { organisationId: scope.organisationId, source: 'templates' });
      return { id: request.params.id, deleted: true as const };
    },
  );
};
