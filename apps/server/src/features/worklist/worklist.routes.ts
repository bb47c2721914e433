import { ZByUser, ZStatusHistory, ZUpdateWorklistBody, ZUuid, ZWorklistItem } from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { emitNotifications } from '../notifications/create-notifications.ts';
import { publishReportStatus } from '../reports/report-publish.ts';
import { bulkRoutes } from './commands/bulk.routes.ts';
import { presentAndPublish } from '../studies/commands/publish.ts';
import { statusHistory } from './commands/status-history.ts';
import { deleteStudy, updateStudy } from './commands/update-study.ts';
import { assertActingAs } from '../../access/acting-as.ts';
import { withAbilities } from '../studies/study.presenter.ts';
import { presentWorklistRows, requireVisibleItem } from '../studies/study.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['worklist'];

/**
 * The write side of the worklist (orders, item read/update/delete, assignment, priority, history).
 * GET /worklist and /worklist/status/count live in ./list.
 */
export const worklistRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const scopeOf = (request: FastifyRequest) => loadScope(db, requirePrincipal(request));

  /** The visible item; deleted items are visible to admins only. */
  const loadVisible = async (request: FastifyRequest, id: string) =>
    requireVisibleItem(db, await scopeOf(request), id);

  app.get(
    '/worklist/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One worklist item the caller may see',
        params: z.object({ id: ZUuid }),
        response: { 200: ZWorklistItem, ...ZErrorResponses },
      },
    },
    async (request) => {
      const row = await loadVisible(request, request.params.id);
      const [item] = await presentWorklistRows(db, [row]);
      if (!item) throw AppError.notFound('Worklist item');
      return withAbilities(item, requirePrincipal(request));
    },
  );

  app.put(
    '/worklist/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Change patient details, study details, priority or collaboration of an item; review hand-off',
        description:
          'Each field needs its permission (see features/studies/study.policy.ts). Patient fields correct the patient record, so every study of that patient changes with it. `status` IN_REVIEW submits the draft report for review (a transcriptionist or reporter; the assigned radiologist is notified); `status` DRAFTED returns it from review with `comment` (the assigned radiologist or an admin; the submitter is notified).',
        params: z.object({ id: ZUuid }),
        body: ZUpdateWorklistBody,
        response: { 200: ZWorklistItem, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      assertActingAs(scope.principal, request.body.by_user_id);
      // Submitting reads the report: first store what the editors typed up to now.
      if (request.body.status === 'IN_REVIEW')
        await app.reportDocuments.flush({ studyId: request.params.id });
      const result = await db.transaction((tx) =>
        updateStudy(tx, { scope, id: request.params.id, body: request.body }),
      );
      const [item] = await presentAndPublish(app, scope, result.ids);
      if (result.reportId) await publishReportStatus(app, result.reportId);
      emitNotifications(app.events, scope.organisationId, result.notifications);
      if (!item) throw AppError.notFound('Worklist item');
      return item;
    },
  );

  app.delete(
    '/worklist/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Soft-delete an item (status DELETED; administrators only; FINAL items cannot be deleted)',
        params: z.object({ id: ZUuid }),
        querystring: ZByUser,
        body: ZByUser.nullish(),
        response: { 200: ZWorklistItem, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      assertActingAs(scope.principal, request.body?.by_user_id ?? request.query.by_user_id);
      const id = await db.transaction((tx) => deleteStudy(tx, { scope, id: request.params.id }));
      const [item] = await presentAndPublish(app, scope, [id]);
      if (!item) throw AppError.notFound('Worklist item');
      return item;
    },
  );

  app.get(
    '/worklist/statuses/:worklist_id',
    {
      schema: {
        tags,
        security,
        summary: 'Status history of an item: from, to, who, when (oldest first)',
        params: z.object({ worklist_id: ZUuid }),
        response: { 200: ZStatusHistory, ...ZErrorResponses },
      },
    },
    async (request) => {
      const row = await loadVisible(request, request.params.worklist_id);
      return statusHistory(db, row.study.id);
    },
  );

  await app.register(bulkRoutes);
};
