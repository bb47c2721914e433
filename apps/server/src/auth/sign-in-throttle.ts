import { and, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { TDb } from '../db/client.ts';
import { authSignInFailures } from '../db/schema/index.ts';
import { queryRows } from '../db/rows.ts';
import { tooManyRequests } from './auth-errors.ts';

type TScope = 'account' | 'ip';

/**
 * One sign-in attempt admitted by the throttle. Its failure rows are already written (provisionally):
 * `succeeded()` removes them, so only failures stay counted; a failed attempt leaves them in place.
 */
export type TSignInAttempt = { succeeded(): Promise<void> };

/**
 * Failed sign-ins per account and per IP over a sliding window, kept in PostgreSQL so every replica
 * counts the same attempts. Only failures are kept: succeeding for someone never locks them out.
 *
 * Check and record are one step, so concurrent guesses cannot all pass a check made before any of
 * them was recorded: each attempt first inserts its failure rows (committed at once), then counts the
 * rows of the window including its own, and is admitted only if that count is within the limit. Of
 * the wrong guesses admitted, the one that counted last saw every other admitted guess's rows (each
 * was committed before that guess counted, and failures are never deleted), so at most `limit` wrong
 * passwords are ever evaluated per window, whatever the concurrency. A concurrent attempt that ends
 * up refused or succeeding may briefly inflate the count of others (they are refused, never admitted
 * beyond the limit); refused attempts remove their rows, so a flood does not extend the lock.
 */
export class SignInThrottle {
  readonly #db: TDb;
  readonly #limits: Record<TScope, number>;
  readonly #windowSeconds: number;

  constructor(db: TDb, options: { maxPerAccount: number; maxPerIp: number; windowMinutes: number }) {
    this.#db = db;
    this.#limits = { account: options.maxPerAccount, ip: options.maxPerIp };
    this.#windowSeconds = options.windowMinutes * 60;
  }

  #recent() {
    return gt(authSignInFailures.createdAt, sql`now() - make_interval(secs => ${this.#windowSeconds})`);
  }

  #keyIs(scope: TScope, key: string) {
    return and(eq(authSignInFailures.scope, scope), eq(authSignInFailures.key, key));
  }

  async #remove(ids: string[]): Promise<void> {
    await this.#db.delete(authSignInFailures).where(inArray(authSignInFailures.id, ids));
  }

  /**
   * Admits one attempt (its failure rows written provisionally), or throws 429
   * auth/too-many-requests with the seconds until the next attempt when over a limit.
   */
  async attempt(account: string, ip: string): Promise<TSignInAttempt> {
    const mine = (
      await this.#db
        .insert(authSignInFailures)
        .values([
          { scope: 'account', key: account },
          { scope: 'ip', key: ip },
        ])
        .returning({ id: authSignInFailures.id })
    ).map((row) => row.id);
    try {
      const counts = await this.#db
        .select({ scope: authSignInFailures.scope, count: sql<number>`count(*)::int` })
        .from(authSignInFailures)
        .where(and(this.#recent(), or(this.#keyIs('account', account), this.#keyIs('ip', ip))))
        .groupBy(authSignInFailures.scope);
      for (const { scope, count } of counts) {
        // `count` includes this attempt: admitted while it is within the limit.
        if (count <= this.#limits[scope]) continue;
        await this.#remove(mine);
        throw tooManyRequests(await this.#retryAfter(scope, scope === 'account' ? account : ip));
      }
    } catch (error) {
      await this.#remove(mine).catch(() => undefined);
      throw error;
    }
    await this.#sweep();
    let settled = false;
    return {
      succeeded: async () => {
        if (settled) return;
        settled = true;
        await this.#remove(mine);
      },
    };
  }

  /** Seconds until enough failures have left the window for an attempt to be admitted again. */
  async #retryAfter(scope: TScope, key: string): Promise<number> {
    const limit = this.#limits[scope];
    const [row] = await queryRows<{ retry: number }>(
      this.#db,
      sql`SELECT ceil(extract(epoch FROM (created_at + make_interval(secs => ${this.#windowSeconds}) - now())))::int AS retry
          FROM auth_sign_in_failures
          WHERE scope = ${scope} AND key = ${key}
            AND created_at > now() - make_interval(secs => ${this.#windowSeconds})
          ORDER BY created_at DESC OFFSET ${limit - 1} LIMIT 1`,
    );
    return Math.max(1, Number(row?.retry ?? 1));
  }

  /** Old rows are useless; drop them now and then (any replica may do it). */
  async #sweep(): Promise<void> {
    if (Math.random() >= 0.02) return;
    await this.#db
      .delete(authSignInFailures)
      .where(
        lt(authSignInFailures.createdAt, sql`now() - make_interval(secs => ${this.#windowSeconds * 2})`),
      );
  }
}
