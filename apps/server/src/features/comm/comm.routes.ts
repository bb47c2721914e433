import { ZDeliveryList, ZDeliveryListQuery, ZOutboxPage, ZOutboxQuery } from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { findVisibleStudyReport } from '../reports/report.queries.ts';
import { authorizeOutbox, deliveriesSenderFilter, mayReadStudyReport } from './comm.policy.ts';
import { listOutbox, listStudyDeliveries } from './deliveries.ts';
import { shareRoutes } from './share.routes.ts';

const security = [{ bearerAuth: [] }];
const tags = ['communication'];

/**
 * /comm (spec §7 "Communication"): share a final report's PDF by e-mail or WhatsApp, the delivery
 * states of a study's shares, the admins' outbox, and the support form (support.routes.ts).
 * Sharing (share.routes.ts) and support are rate-limited per user, each in its own scope.
 */
export const commRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const scopeOf = (request: FastifyRequest) => loadScope(db, requirePrincipal(request));

  app.get(
    '/comm/messages',
    {
      schema: {
        tags,
        security,
        summary: "The deliveries of a study's report, newest first: pending, sent, failed (reason), outbox",
        description:
          'Visible to whoever may share the report; a referring physician sees only the messages they sent.',
        querystring: ZDeliveryListQuery,
        response: { 200: ZDeliveryList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const found = await findVisibleStudyReport(db, scope, request.query.worklist_id);
      if (!found || !mayReadStudyReport(scope, found.study, found.report)) {
        throw AppError.notFound('Worklist item');
      }
      const items = await listStudyDeliveries(db, {
        organisationId: scope.organisationId,
        studyId: found.study.id,
        createdBy: deliveriesSenderFilter(scope.principal),
      });
      return { items };
    },
  );

  app.get(
    '/comm/outbox',
    {
      schema: {
        tags,
        security,
        summary: 'Every outbound message of the organisation with its text (administrators)',
        description:
          'Report shares and support mail, newest first (account mail, which carries sign-in links, is never listed). Without SMTP_URL / WHATSAPP_* configured, this is where messages wait (state "outbox").',
        querystring: ZOutboxQuery,
        response: { 200: ZOutboxPage, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      authorizeOutbox(scope.principal);
      const { limit, offset, channel } = request.query;
      const page = await listOutbox(db, { organisationId: scope.organisationId, channel, limit, offset });
      return { ...page, limit, offset };
    },
  );

  await app.register(shareRoutes);
};
