import {
  ZWorklistFilters,
  ZWorklistListQuery,
  ZWorklistListResponse,
  ZWorklistStatusCounts,
} from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../../access/require-principal.ts';
import { loadScope } from '../../../access/scope.ts';
import { ZErrorResponses } from '../../../http/openapi-errors.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { countWorklistStatuses, listWorklist } from './worklist-list.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['worklist'];

/**
 * The read side of the worklist: GET /worklist (a filtered, sorted page) and GET /worklist/status/count
 * (the tabs' counts). Date filters apply to created_at; presets are resolved at app.deps.clock().
 */
export const worklistListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const now = () => app.deps.clock?.() ?? new Date();

  app.get(
    '/worklist',
    {
      schema: {
        tags,
        security,
        summary: 'Worklist items visible to the caller, filtered, sorted and paginated',
        querystring: ZWorklistListQuery,
        response: { 200: ZWorklistListResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const criteria = await resolveWorklistCriteria(db, scope, request.query, now());
      return listWorklist(db, criteria, request.query);
    },
  );

  app.get(
    '/worklist/status/count',
    {
      schema: {
        tags,
        security,
        summary: 'Counts per status and per display group under the worklist filters (statuses ignored)',
        querystring: ZWorklistFilters,
        response: { 200: ZWorklistStatusCounts, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const criteria = await resolveWorklistCriteria(db, scope, request.query, now());
      return countWorklistStatuses(db, criteria);
    },
  );
};
