import {
  ZWorklistFilters,
  ZWorklistListQuery,
  ZWorklistListResponse,
  ZWorklistStatusCounts,
  type TWorklistListQuery,
  type TWorklistStatusCounts,
} from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../../access/require-principal.ts';
import { loadScope, type TScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import type { TDbOrTx } from '../../../db/client.ts';
import { ZErrorResponses } from '../../../http/openapi-errors.ts';
import { WorklistCountCache, type TCountWindow } from './worklist-count-cache.ts';
import { startCountInvalidation } from './worklist-count-invalidation.ts';
import { resolveWorklistCriteria, type TWorklistCriteria } from './worklist-criteria.ts';
import { countWorklistStatuses, listWorklistJson } from './worklist-list.queries.ts';
import { closeWorklistPools } from './worklist-sql.ts';

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
 * The count cache's key for the list's total (over the listed statuses) or the tabs' counts (over
 * the counted ones) under `criteria`, or null when it must not be cached: a search (its matches change with patient corrections, which do not always announce every
 * study, and searches rarely repeat) and a referring physician's scope (it follows which referring
 * physician records are theirs, which no study change announces). Everything else the WHERE clause
 * depends on is in the key: the organisation, the caller's facilities (loaded on every request, so
 * a change of assignment is a new key), each filter and the date filter asked for.
 */
function countKey(kind: 'total' | 'counts', criteria: TWorklistCriteria): string | null {
  const { scope } = criteria;
  const statuses = kind === 'total' ? criteria.statuses : criteria.countedStatuses;
  if (criteria.searchText !== null || scope.principal.role === 'REFERRING_PHYSICIAN') return null;
  const sorted = (values: readonly string[]) => [...values].sort().join(',');
  return JSON.stringify([
    kind,
    scope.organisationId,
    scope.allFacilities ? '*' : sorted(scope.facilityIds),
    sorted(statuses),
    sorted(criteria.facilityIds),
    sorted(criteria.byUserIds),
    sorted(criteria.modalities),
    criteria.dateKey,
  ]);
}

/**
 * The cache key of a whole list page (body and total): the total's key plus the page's order and
 * bounds, or null when the total is not cacheable. The page holds nothing else of the caller: its
 * rows are the studies matching that WHERE clause in that order, with their facility, assignee and
 * documents.
 */
function pageKey(criteria: TWorklistCriteria, query: TWorklistListQuery): string | null {
  const total = countKey('total', criteria);
  if (total === null) return null;
  return JSON.stringify(['page', total, query.sort_by, query.sort_order, query.limit, query.offset]);
}

/**
 * A cached page is dropped after this long even when no study change was heard of: a page also shows
 * the assignee's display name and the facility's name, whose changes announce no study change. Within
 * it, a rename shows up late by at most this long; every study change evicts at once.
 */
const PAGE_MAX_AGE_MS = 5_000;

type TCachedPage = { body: string; total: number };

const windowOf = (criteria: TWorklistCriteria): TCountWindow => ({ from: criteria.from, to: criteria.to });

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
 * (the tabs' counts). Date filters apply to created_at; presets are resolved at app.deps.clock().
 */
export const worklistListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database } = app.deps;
  const { db } = database;
  const now = () => app.deps.clock?.() ?? new Date();
  const cache = new WorklistCountCache();
  countCaches.set(app.deps, cache);
  const stopInvalidation = await startCountInvalidation(app, cache);
  app.addHook('onClose', async () => {
    await stopInvalidation();
    await closeWorklistPools(database);
  });
  const cachedCount = <TValue>(kind: 'total' | 'counts', criteria: TWorklistCriteria) =>
    cache.lookup<TValue>(countKey(kind, criteria), criteria.scope.organisationId, windowOf(criteria));

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
      // The same page again (nothing changed, the window moved over no study): served from memory,
      // and read once for all the requests asking for it at the same time.
      const readPage = async (readEdges: boolean) => {
        const total = cachedCount<number>('total', criteria);
        // A page to keep needs the window edges, read with the total: the cached total is not used then.
        const options = readEdges
          ? { total: undefined, edges: true }
          : { total: total.value, edges: total.readEdges };
        const { body, ...counted } = await listWorklistJson(database, criteria, request.query, options);
        total.store(counted.total, counted.edges);
        return { value: { body, total: counted.total }, edges: counted.edges };
      };
      const page = await cache.through<TCachedPage>(
        pageKey(criteria, request.query),
        criteria.scope.organisationId,
        windowOf(criteria),
        readPage,
        { maxAgeMs: PAGE_MAX_AGE_MS },
      );
      // A string with a JSON content type is sent as is (the body is already the response's JSON).
      return reply.type('application/json; charset=utf-8').send(page.body as never);
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
      return cache.through<TWorklistStatusCounts>(
        countKey('counts', criteria),
        criteria.scope.organisationId,
        windowOf(criteria),
        async (readEdges) => {
          const { counts, edges } = await countWorklistStatuses(database, criteria, { edges: readEdges });
          return { value: counts, edges };
        },
      );
    },
  );
};
