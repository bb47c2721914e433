import { ZTurnaroundTargetsResponse, ZUpdateTurnaroundTargetsBody } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import {
  authorizeTargetsChange,
  loadTurnaroundTargets,
  saveTurnaroundTargets,
} from './turnaround-targets.ts';

const security = [{ bearerAuth: [] }];
const tags = ['organisations'];

/**
 * The caller's organisation's turnaround targets (issue 16). Everyone in the organisation reads them
 * (the worklist's clock badge needs them); only its ADMINs change them.
 */
export const turnaroundTargetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/organisation/turnaround-targets',
    {
      schema: {
        tags,
        security,
        summary: "The organisation's turnaround targets (minutes from arrival to FINAL per priority tag)",
        response: { 200: ZTurnaroundTargetsResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      return loadTurnaroundTargets(db, scope.organisationId);
    },
  );

  app.put(
    '/organisation/turnaround-targets',
    {
      schema: {
        tags,
        security,
        summary: "Set the organisation's turnaround targets (administrators)",
        description:
          'Whole minutes from 1 to 43,200 (30 days): default_minutes for untagged studies and per_priority by tag; a tag left out keeps its default. 400 naming the field (e.g. per_priority.EMERGENCY), 403 for anyone but an ADMIN.',
        body: ZUpdateTurnaroundTargetsBody,
        response: { 200: ZTurnaroundTargetsResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      authorizeTargetsChange(principal);
      const scope = await loadScope(db, principal);
      return saveTurnaroundTargets(db, scope.organisationId, request.body);
    },
  );
};
