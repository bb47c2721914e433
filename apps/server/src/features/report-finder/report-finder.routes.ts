import { ZReportSearchQuery, ZReportSearchResponse } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { worklistScope } from '../worklist/list/worklist-scope.ts';
import { resolveReportFinderCriteria } from './report-finder-criteria.ts';
import { presentReportSearch } from './report-finder.presenter.ts';
import { findReports } from './report-finder-walk.ts';

const security = [{ bearerAuth: [] }];
const tags = ['report-finder'];

/**
 * GET /report/search, the report finder: validate (the query schema) → the caller's scope as the
 * worklist loads it → the filters resolved and checked against it (report-finder-criteria.ts) → one
 * statement for the page and its total (report-finder.queries.ts) → present. Scope is the worklist's:
 * staff their facilities, admins the organisation (deleted studies too), referring physicians the
 * FINAL reports of the studies they referred, another organisation nothing.
 */
export const reportFinderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const now = () => app.deps.clock?.() ?? new Date();

  app.get(
    '/report/search',
    {
      schema: {
        tags,
        security,
        summary:
          'Reports visible to the caller whose text matches q (web-search syntax), under the worklist filters, ranked, with snippets',
        querystring: ZReportSearchQuery,
        response: { 200: ZReportSearchResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await worklistScope(db, requirePrincipal(request), request.query.facility_ids);
      const criteria = await resolveReportFinderCriteria(db, scope, request.query, now());
      return presentReportSearch(await findReports(db, criteria), criteria);
    },
  );
};
