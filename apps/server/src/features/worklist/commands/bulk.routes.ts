import { ZAssignPriorityBody, ZAssignRadiologistBody, ZBulkBody, ZBulkResult } from '@ris/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../../access/require-principal.ts';
import { loadScope, type TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { ZErrorResponses } from '../../../http/openapi-errors.ts';
import { assertActingAs } from '../../../access/acting-as.ts';
import { emitNotifications } from '../../notifications/create-notifications.ts';
import { assignRadiologist, unassignRadiologist } from './assign-radiologist.ts';
import type { TBulkResult } from './bulk.ts';
import { setPriorityTag } from './priority-tags.ts';
import { presentAndPublish } from '../../studies/commands/publish.ts';

const security = [{ bearerAuth: [] }];
const tags = ['worklist'];

const BULK_NOTE =
  'Applies to the items the caller may change, in one transaction, and reports the others in `skipped`. Empty worklist_ids → 400; ids the caller cannot see → 404 naming them, nothing changes.';

/** The bulk actions on selected worklist items. */
export const bulkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  async function run(
    request: FastifyRequest,
    byUserId: string | undefined,
    command: (tx: TTx, scope: TScope) => Promise<TBulkResult>,
  ) {
    const scope = await loadScope(db, requirePrincipal(request));
    assertActingAs(scope.principal, byUserId);
    const result = await db.transaction((tx) => command(tx, scope));
    return respond(app, scope, result);
  }

  app.put(
    '/worklist/assign/radiologist',
    {
      schema: {
        tags,
        security,
        summary: 'Assign a radiologist to items',
        description: `The radiologist must be active, a RADIOLOGIST of the organisation and work for each item's facility. ${BULK_NOTE}`,
        body: ZAssignRadiologistBody,
        response: { 200: ZBulkResult, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      assertActingAs(scope.principal, request.body.by_user_id);
      const result = await db.transaction((tx) =>
        assignRadiologist(tx, {
          scope,
          worklistIds: request.body.worklist_ids,
          assigneeId: request.body.last_assigned_user_fk,
        }),
      );
      emitNotifications(app.events, scope.organisationId, result.notifications);
      return respond(app, scope, result);
    },
  );

  app.put(
    '/worklist/unassign/radiologist',
    {
      schema: {
        tags,
        security,
        summary: 'Unassign the radiologist of items (back to TO_READ while no report content exists)',
        description: BULK_NOTE,
        body: ZBulkBody,
        response: { 200: ZBulkResult, ...ZErrorResponses },
      },
    },
    async (request) =>
      run(request, request.body.by_user_id, (tx, scope) =>
        unassignRadiologist(tx, { scope, worklistIds: request.body.worklist_ids }),
      ),
  );

  app.put(
    '/worklist/assign/priority-tag',
    {
      schema: {
        tags,
        security,
        summary: 'Set the priority tag of items',
        description: BULK_NOTE,
        body: ZAssignPriorityBody,
        response: { 200: ZBulkResult, ...ZErrorResponses },
      },
    },
    async (request) =>
      run(request, request.body.by_user_id, (tx, scope) =>
        setPriorityTag(tx, {
          scope,
          worklistIds: request.body.worklist_ids,
          priorityTag: request.body.priority_tag,
        }),
      ),
  );

  app.put(
    '/worklist/unassign/priority-tag',
    {
      schema: {
        tags,
        security,
        summary: 'Clear the priority tag of items',
        description: BULK_NOTE,
        body: ZBulkBody,
        response: { 200: ZBulkResult, ...ZErrorResponses },
      },
    },
    async (request) =>
      run(request, request.body.by_user_id, (tx, scope) =>
        setPriorityTag(tx, { scope, worklistIds: request.body.worklist_ids, priorityTag: null }),
      ),
  );
};

async function respond(app: FastifyInstance, scope: TScope, result: TBulkResult) {
  const updated = await presentAndPublish(app, scope, result.updatedIds);
  return { updated_worklists: updated, skipped: result.skipped };
}
