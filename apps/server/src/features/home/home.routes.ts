import { ZHomeSummary, ZHomeSummaryQuery } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { readHomeSummary } from './home-summary.ts';

/** The home dashboard (issue 16): one summary whose sections follow the caller's role. */
export const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const now = (): Date => app.deps.clock?.() ?? new Date();

  app.get(
    '/home/summary',
    {
      schema: {
        tags: ['home'],
        security: [{ bearerAuth: [] }],
        summary: "What the caller needs first: their queue and figures, or the group's, by role",
        description:
          'Radiologists and reporters: my_queue, my_drafts, returned_to_me, my_finals_today, my_median_turnaround_week_minutes. Transcriptionists: typing_queue, submitted_for_review. Admins (the organisation) and facility admins (their facility): waiting, unassigned_by_priority, workload, turnaround, breaches. Referring physicians: recent_finals. A section that is absent is not for the caller. Scoped as the worklist; "today" starts at midnight in time_zone (default UTC).',
        querystring: ZHomeSummaryQuery,
        response: { 200: ZHomeSummary, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      return readHomeSummary(db, scope, { timeZone: request.query.time_zone, now: now() });
    },
  );
};
