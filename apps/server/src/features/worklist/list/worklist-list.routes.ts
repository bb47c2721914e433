import {
  ZWorklistFilters,
  ZWorklistListQuery,
  ZWorklistListResponse,
  ZWorklistStatusCounts,
} from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../../access/require-principal.ts';
import { loadScope, type TScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import type { TDbOrTx } from '../../../db/client.ts';
import { ZErrorResponses } from '../../../http/openapi-errors.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { countWorklistStatuses, listWorklistJson } from './worklist-list.queries.ts';

const security = [{ bearerAuth: [] }];

/**
 * The caller's scope as the worklist needs it. Admins see their whole organisation and referring
 * physicians the studies they referred (visibleStudies uses no facility list for either), so their
 * facility list is loaded only when facility_ids must be checked against it; staff always need it.
 * Skipping the query changes no answer: it saves a round trip on the busiest endpoints.
 */
async function worklistScope(
  db: TDbOrTx,
  principal: TPrincipal,
  filteredFacilityIds: readonly string[],
): Promise<TScope> {
  const { organisationId, role } = principal;
  if (organisationId && role) {
    if (role === 'REFERRING_PHYSICIAN') {
      return { principal, organisationId, allFacilities: false, facilityIds: [] };
    }
    if (role === 'ADMIN' && filteredFacilityIds.length === 0) {
      return { principal, organisationId, allFacilities: true, facilityIds: [] };
    }
  }
  return loadScope(db, principal);
}

/**
 * The responses of these two routes are built by this module's code only (typed by the domain
 * schemas, the list's items as JSON by PostgreSQL), so they are written as JSON without running the
 * zod response schema again: it stays the OpenAPI description and the routes' tests check the shape.
 * safeEncode of 25 items (uuid and ISO date-time regexes on every field) cost more than the query.
 */
const serializerCompiler = () => (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data));
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
      serializerCompiler,
    },
    async (request, reply) => {
      const scope = await worklistScope(db, requirePrincipal(request), request.query.facility_ids);
      const criteria = await resolveWorklistCriteria(db, scope, request.query, now());
      const body = await listWorklistJson(db, criteria, request.query);
      // A string with a JSON content type is sent as is (the body is already the response's JSON).
      return reply.type('application/json; charset=utf-8').send(body as never);
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
      serializerCompiler,
    },
    async (request) => {
      const scope = await worklistScope(db, requirePrincipal(request), request.query.facility_ids);
      const criteria = await resolveWorklistCriteria(db, scope, request.query, now());
      return countWorklistStatuses(db, criteria);
    },
  );
};
