import {
  paginate,
  ZMarkNotificationsReadBody,
  ZMarkNotificationsReadResponse,
  ZNotificationList,
  ZNotificationListQuery,
  ZUuid,
} from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import {
  countNotifications,
  listNotifications,
  markNotificationsRead,
  presentNotification,
} from './notifications.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['notifications'];

/**
 * Notifications (spec §7): a user reads and marks only their own. Another user's notifications,
 * whoever asks, are not found (404): they are never shown, not even to admins.
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const now = (): Date => app.deps.clock?.() ?? new Date();

  app.get(
    '/notification/:user_id',
    {
      schema: {
        tags,
        security,
        summary: "The caller's notifications, newest first, with the unread count",
        description:
          'user_id must be the caller (404 otherwise). unread_only=true lists only unread ones (and `total` counts those).',
        params: z.object({ user_id: ZUuid }),
        querystring: ZNotificationListQuery,
        response: { 200: ZNotificationList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      if (request.params.user_id !== principal.userId) throw AppError.notFound('Notifications');
      const { limit, offset } = request.query;
      const unreadOnly = request.query.unread_only === 'true';
      const [counts, rows] = await Promise.all([
        countNotifications(db, principal.userId),
        listNotifications(db, { userId: principal.userId, unreadOnly, limit, offset }),
      ]);
      return {
        items: rows.map(presentNotification),
        ...paginate(unreadOnly ? counts.unread : counts.total, limit, offset),
        unread_count: counts.unread,
      };
    },
  );

  app.put(
    '/notification/read',
    {
      schema: {
        tags,
        security,
        summary: "Mark the caller's notifications read",
        description:
          "notification_ids (1..200) or all: true. Ids of other users' notifications are left alone and not reported; updated_ids lists the caller's notifications that turned read.",
        body: ZMarkNotificationsReadBody,
        response: { 200: ZMarkNotificationsReadResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const body = request.body;
      const ids = body.all === true ? ('all' as const) : [...new Set(body.notification_ids ?? [])];
      return db.transaction(async (tx) => {
        const updated = await markNotificationsRead(tx, { userId: principal.userId, ids, now: now() });
        const { unread } = await countNotifications(tx, principal.userId);
        return { updated_ids: updated, unread_count: unread };
      });
    },
  );
};
