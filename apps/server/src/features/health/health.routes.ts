import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZHealth, ZReady } from '@ris/domain';
import type { TDb } from '../../db/client.ts';
import { pendingMigrationCount } from '../../db/migrate.ts';
import type { BlobStore } from '../../files/blob-store.ts';

/** How long one file-store check answers /readyz (probes every few seconds cost one request each). */
const FILES_CHECK_TTL_MS = 15_000;
const FILES_CHECK_TIMEOUT_MS = 3_000;

/** The file store's last known state, checked at most once per FILES_CHECK_TTL_MS (one check at a time). */
function filesCheck(blobs: BlobStore): (log: FastifyBaseLogger) => Promise<'up' | 'down'> {
  let last: { at: number; state: Promise<'up' | 'down'> } | null = null;
  return (log) => {
    if (last && performance.now() - last.at < FILES_CHECK_TTL_MS) return last.state;
    const state = blobs.checkReachable(FILES_CHECK_TIMEOUT_MS).then(
      () => 'up' as const,
      (error: unknown) => {
        log.warn({ err: error }, `readiness: file store (${blobs.driver}) unreachable`);
        return 'down' as const;
      },
    );
    last = { at: performance.now(), state };
    return state;
  };
}

/** Liveness (the process answers) and readiness (database reachable and fully migrated). */
export const healthRoutes = (db: TDb, blobs: BlobStore): FastifyPluginAsyncZod =>
  async function health(app) {
    const files = filesCheck(blobs);

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
          summary: 'Database reachable and migrations applied; file store state',
          response: { 200: ZReady, 503: ZReady },
        },
      },
      async (request, reply) => {
        const filesState = files(request.log);
        try {
          await db.execute(sql`SELECT 1`);
        } catch (error) {
          request.log.warn({ err: error }, 'readiness: database unreachable');
          return reply.status(503).send({
            status: 'not_ready',
            database: 'down',
            pending_migrations: null,
            files: await filesState,
          });
        }
        const pending = await pendingMigrationCount(db).catch(() => null);
        const ready = pending === 0;
        return reply.status(ready ? 200 : 503).send({
          status: ready ? 'ready' : 'not_ready',
          database: 'up',
          pending_migrations: pending,
          files: await filesState,
        });
      },
    );
  };
