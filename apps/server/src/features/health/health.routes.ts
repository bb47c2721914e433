import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZHealth, ZReady } from '@ris/domain';
import type { TDb } from '../../db/client.ts';
import { pendingMigrationCount } from '../../db/migrate.ts';

/** Liveness (the process answers) and readiness (database reachable and fully migrated). */
export const healthRoutes = (db: TDb): FastifyPluginAsyncZod =>
  async function health(app) {
    app.get(
      '/healthz',
      { schema: { tags: ['health'], summary: 'Process is alive', response: { 200: ZHealth } } },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        schema: {
          tags: ['health'],
          summary: 'Database reachable and migrations applied',
          response: { 200: ZReady, 503: ZReady },
        },
      },
      async (request, reply) => {
        try {
          await db.execute(sql`SELECT 1`);
        } catch (error) {
          request.log.warn({ err: error }, 'readiness: database unreachable');
          return reply.status(503).send({ status: 'not_ready', database: 'down', pending_migrations: null });
        }
        const pending = await pendingMigrationCount(db).catch(() => null);
        const ready = pending === 0;
        return reply
          .status(ready ? 200 : 503)
          .send({ status: ready ? 'ready' : 'not_ready', database: 'up', pending_migrations: pending });
      },
    );
  };
