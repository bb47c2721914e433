import { ZDeletedResponse, ZCreateMacroBody, ZMacro, ZMacroList, ZUpdateMacroBody, ZUuid } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { createMacro, deleteMacro, loadMacroOwner, updateMacro } from './macros.commands.ts';
import { listMacros, presentMacro } from './macros.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['macros'];

/**
 * A user's text macros (spec §7): typing the short key in the editor inserts the value. The owner
 * manages their own; an admin those of any user of the organisation; another organisation's: 404.
 */
export const macroRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/radiologist/macros/:user_id',
    {
      schema: {
        tags,
        security,
        summary: 'A user’s macros, by short key',
        params: z.object({ user_id: ZUuid }),
        response: { 200: ZMacroList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const owner = await loadMacroOwner(db, scope, request.params.user_id, 'user_id');
      const rows = await listMacros(db, owner.id);
      return { items: rows.map((row) => presentMacro(row, owner, scope.principal)) };
    },
  );

  app.post(
    '/radiologist/macro',
    {
      schema: {
        tags,
        security,
        summary: 'Create a macro (short key unique per user, case-insensitively; value sanitised)',
        body: ZCreateMacroBody,
        response: { 201: ZMacro, ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const { macro, owner } = await createMacro(db, scope, request.body);
      app.events.emit('vocabulary.changed', { organisationId: scope.organisationId, source: 'macros' });
      return reply.status(201).send(presentMacro(macro, owner, scope.principal));
    },
  );

  app.patch(
    '/radiologist/macro/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change a macro’s short key, value or display name',
        params: z.object({ id: ZUuid }),
        body: ZUpdateMacroBody,
        response: { 200: ZMacro, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const { macro, owner } = await updateMacro(db, scope, request.params.id, request.body);
      app.events.emit('vocabulary.changed', { organisationId: scope.organisationId, source: 'macros' });
      return presentMacro(macro, owner, scope.principal);
    },
  );

  app.delete(
    '/radiologist/macro/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a macro',
        params: z.object({ id: ZUuid }),
        response: { 200: ZDeletedResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      await deleteMacro(db, scope, request.params.id);
      app.events.emit('vocabulary.changed', { organisationId: scope.organisationId, source: 'macros' });
      return { id: request.params.id, deleted: true as const };
    },
  );
};
