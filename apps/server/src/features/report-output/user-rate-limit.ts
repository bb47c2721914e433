// Per-user request limits for costly or outward-reaching routes (rendering, sharing): the options of
// @fastify/rate-limit registered in a route plugin's own scope, so every route of that plugin counts
// against one allowance per signed-in user. Counters live in this process (per replica).
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { AppError } from '../../http/app-error.ts';

export type TUserRateLimit = {
  /** Names the allowance in the counter key (`${name}:${user id}`). */
  name: string;
  max: number;
  timeWindowMs: number;
  /** The 429 message, before "Please try again in …" (e.g. "Too many report downloads"). */
  what: string;
};

function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Options for `app.register(rateLimit, …)` inside a route plugin: limits every route registered
 * after it in that plugin, counted together per user (after authentication: hook preHandler), and
 * answers 429 with the usual error body and retry_after_seconds.
 */
export function userRateLimitOptions(limit: TUserRateLimit): RateLimitPluginOptions {
  return {
    global: true,
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    hook: 'preHandler',
    keyGenerator: (request) => `${limit.name}:${request.principal?.userId ?? request.ip}`,
    errorResponseBuilder: (_request, context) =>
      new AppError('TOO_MANY_REQUESTS', `${limit.what}. Please try again in ${waitText(context.ttl)}`, {
        retry_after_seconds: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  };
}
