import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { TDb } from '../db/client.ts';
import { authSignInFailures } from '../db/schema/index.ts';
import { queryRows } from '../db/rows.ts';
import { tooManyRequests } from './auth-errors.ts';

type TScope = 'account' | 'ip';

/**
 * Failed sign-ins per account and per IP over a sliding window, kept in PostgreSQL so every replica
 * counts the same attempts. Only failures are recorded: succeeding for someone never locks them out.
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

  /** Throws 429 auth/too-many-requests (with the seconds until the next attempt) when over a limit. */
  async check(account: string, ip: string): Promise<void> {
    const counts = await this.#db
      .select({ scope: authSignInFailures.scope, count: sql<number>`count(*)::int` })
      .from(authSignInFailures)
      .where(and(this.#recent(), or(this.#keyIs('account', account), this.#keyIs('ip', ip))))
      .groupBy(authSignInFailures.scope);
    for (const { scope, count } of counts) {
      const limit = this.#limits[scope];
      if (count < limit) continue;
      // The attempt is allowed again when enough failures have left the window to go below the limit.
      const [row] = await queryRows<{ retry: number }>(
        this.#db,
        sql`SELECT ceil(extract(epoch FROM (created_at + make_interval(secs => ${this.#windowSeconds}) - now())))::int AS retry
            FROM auth_sign_in_failures
            WHERE scope = ${scope} AND key = ${scope === 'account' ? account : ip}
              AND created_at > now() - make_interval(secs => ${this.#windowSeconds})
            ORDER BY created_at ASC OFFSET ${count - limit} LIMIT 1`,
      );
      throw tooManyRequests(Math.max(1, Number(row?.retry ?? this.#windowSeconds)));
    }
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    await this.#db.insert(authSignInFailures).values([
      { scope: 'account', key: account },
      { scope: 'ip', key: ip },
    ]);
    // Old rows are useless; drop a few now and then (any replica may do it).
    if (Math.random() < 0.02) {
      await this.#db
        .delete(authSignInFailures)
        .where(
          lt(authSignInFailures.createdAt, sql`now() - make_interval(secs => ${this.#windowSeconds * 2})`),
        );
    }
  }
}
