import { z } from 'zod';

/** GET /healthz: the process answers. */
export const ZHealth = z.object({ status: z.literal('ok') });
export type THealth = z.infer<typeof ZHealth>;

/**
 * GET /readyz: the database answers and every migration is applied (503 otherwise). `files` says
 * whether the file store (disk or S3 bucket) answered its last check; it does not decide readiness:
 * every replica shares the store, and worklists and reporting go on without it.
 */
export const ZReady = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['up', 'down']),
  pending_migrations: z.number().int().nullable(),
  files: z.enum(['up', 'down']),
});
export type TReady = z.infer<typeof ZReady>;
