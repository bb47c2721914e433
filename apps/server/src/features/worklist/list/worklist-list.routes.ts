import {
  ZWorklistFilters,
  ZWorklistListQuery,
  ZWorklistListResponse,
  ZWorklistStatusCounts,
} from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../../access/require-principal.ts';
import { ZErrorResponses } from '../../../http/openapi-errors.ts';
import { readStatusCounts, readWorklistPage } from './read-worklist.ts';
import { WorklistCountCache } from './worklist-count-cache.ts';
import { startCountInvalidation } from './worklist-count-invalidation.ts';
import { startCountCompaction } from './worklist-rollup-compaction.ts';
import { resolveWorklistCriteria } from './worklist-criteria.ts';
import { worklistScope } from './worklist-scope.ts';
import { closeWorklistPools } from './worklist-sql.ts';
import { withListAbilities } from '../../studies/study.presenter.ts';

const security = [{ bearerAuth: [] }];

/** Each application's count cache, for benchmarks that measure the uncached path. */
const countCaches = new WeakMap<object, WorklistCountCache>();
export const worklistCountCacheOf = (deps: object): WorklistCountCache | undefined => countCaches.get(deps);

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
 * (the tabs' counts). Each route: validate (the query schema) → load the caller's scope → resolve
 * and authorize the filters against it (worklist-criteria.ts) → read through the count cache
 * (read-worklist.ts). Date filters apply to created_at; presets are resolved at app.deps.clock().
 */
export const worklistListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database } = app.deps;
  const { db } = database;
  const now = () => app.deps.clock?.() ?? new Date();
  const cache = new WorklistCountCache();
  countCaches.set(app.deps, cache);
  const stopInvalidation = await startCountInvalidation(app, cache);
  const stopCompaction = startCountCompaction(db, app.log);
  app.addHook('onClose', async () => {
    await stopCompaction();
    await stopInvalidation();
    await closeWorklistPools(database);
  });

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
      const page = await readWorklistPage(database, cache, criteria, request.query);
      // The page is cached for everyone who sees it; the caller's abilities go in last.
      const body = withListAbilities(page, scope.principal);
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
      const criteria = await resolveWorklistCriteria(db, scope, request.query, now(), {
        keyedSearch: true,
        reads: 'tabs',
      });
      return readStatusCounts(database, cache, criteria);
    },
  );
};
