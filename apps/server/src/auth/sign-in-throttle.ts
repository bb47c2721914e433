import { eq, lt, sql, type SQL } from 'drizzle-orm';
import type { TDb, TTx } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import { authSignInFailures } from '../db/schema/index.ts';

/** Who is trying: the lower-cased e-mail, the client's IP, and the account's device cookie if valid. */
export type TSignInSource = { account: string; ip: string; deviceId: string | null };

/** The counts that slow an attempt down (see SignInThrottle). */
export type TThrottleBucket = 'device' | 'account_ip' | 'account' | 'ip';

export type TThrottleLimits = {
  /** Failures per account from one source (an IP, or one device) before delays. */
  maxPerAccount: number;
  /** Failures per account from every unknown browser before delays. */
  maxPerAccountAllIps: number;
  /** Distinct accounts failing from one IP (unknown browsers) before delays. */
  maxAccountsPerIp: number;
  windowMinutes: number;
  backoffBaseSeconds: number;
  backoffMaxSeconds: number;
};

/**
 * An attempt admitted by the throttle. Its failure row is already written (provisionally):
 * `succeeded()` removes it, so only failures stay counted; a failed attempt leaves it in place.
 * `accountDelayed` says whether this failure, if it is one, starts or continues delays for the
 * account (someone is guessing its password).
 */
export type TSignInAttempt = { accountDelayed: boolean; succeeded(): Promise<void> };

/** A refused attempt: how long to wait, and whether the account itself is what is being slowed. */
export class SignInDelayed extends Error {
  readonly retryAfterSeconds: number;
  readonly bucket: TThrottleBucket;

  constructor(retryAfterSeconds: number, bucket: TThrottleBucket) {
    super(`sign-in delayed ${retryAfterSeconds} s (${bucket})`);
    this.name = 'SignInDelayed';
    this.retryAfterSeconds = retryAfterSeconds;
    this.bucket = bucket;
  }

  get accountTargeted(): boolean {
    return this.bucket !== 'ip';
  }
}

/**
 * The wait before the next attempt once a count has `failures` (≥ limit) in the window: the base
 * delay, doubled at each failure past the limit, never more than the maximum.
 */
export function backoffSeconds(
  failures: number,
  limit: number,
  options: { baseSeconds: number; maxSeconds: number },
): number {
  if (failures < limit) return 0;
  const doublings = Math.min(failures - limit, 30);
  return Math.min(options.baseSeconds * 2 ** doublings, options.maxSeconds);
}

/**
 * Whole seconds an attempt must still wait (0: admitted). Below the limit there is no wait at all,
 * whatever the clocks say: `sinceLast` is measured from this transaction's start, so a failure row
 * written by a concurrent attempt that started later reads as a few ms in the future (negative),
 * which must not delay a sign-in from the same address.
 */
export function secondsToWait(
  failures: number,
  sinceLast: number | null,
  limit: number,
  options: { baseSeconds: number; maxSeconds: number },
): number {
  const wait = backoffSeconds(failures, limit, options);
  if (wait === 0 || sinceLast === null || sinceLast >= wait) return 0;
  return Math.max(1, Math.ceil(wait - sinceLast));
}

type TBucketStats = { bucket: TThrottleBucket; failures: number; sinceLast: number | null };

/**
 * Failed sign-ins over a sliding window, kept in PostgreSQL so every replica counts the same
 * attempts, with growing delays instead of a lock (OWASP's advice against lock-out denial of service):
 * - a browser holding the account's device cookie (it signed in before) is counted on its own: only
 *   its failures delay it, whatever others try against the account;
 * - any other browser is counted per account and IP, so guesses from one address never slow the
 *   account down from another, nor other accounts behind the same address (a hospital's NAT); per
 *   account over every IP, with a higher limit (guessing spread over many addresses); and per IP over
 *   distinct accounts (one address trying many accounts: password spraying).
 * Within its limit a count admits attempts at once; past it, each attempt must come at least
 * `backoffSeconds` after the count's last failure, else 429 with the seconds left.
 *
 * Check and record are one step: each attempt takes transaction-scoped advisory locks on its account
 * (then on its IP, always in that order, so two attempts never wait on each other crosswise), reads
 * the counts, and writes its failure row before it commits, so the next attempt on the same account
 * or IP reads it. Concurrent guesses are therefore admitted one after another, and at most `limit`
 * wrong passwords per count are evaluated before the delays start, whatever the concurrency. Refused
 * attempts write nothing, so a flood does not extend the delay.
 */
export class SignInThrottle {
  readonly #db: TDb;
  readonly #limits: TThrottleLimits;

  constructor(db: TDb, limits: TThrottleLimits) {
    this.#db = db;
    this.#limits = limits;
  }

  get windowMinutes(): number {
    return this.#limits.windowMinutes;
  }

  /** Admits one attempt (its failure row written provisionally), or throws SignInDelayed. */
  async attempt(source: TSignInSource): Promise<TSignInAttempt> {
    const { account, ip, deviceId } = source;
    const admitted = await this.#db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(7401, hashtext(${`account:${account}`}))`);
      if (deviceId === null) {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(7402, hashtext(${`ip:${ip}`}))`);
      }
      const stats = await this.#stats(tx, source);
      let accountDelayed = false;
      for (const { bucket, failures, sinceLast } of stats) {
        const limit = this.#limitOf(bucket);
        const left = secondsToWait(failures, sinceLast, limit, this.#backoff());
        if (left > 0) throw new SignInDelayed(left, bucket);
        // With this attempt's row, will the count be at its limit (the next one waits)?
        if (bucket !== 'ip' && failures + 1 >= limit) accountDelayed = true;
      }
      const [row] = await tx
        .insert(authSignInFailures)
        .values({ account, ip, deviceId })
        .returning({ id: authSignInFailures.id });
      if (!row) throw new Error('failure row not written');
      return { id: row.id, accountDelayed };
    });
    await this.#sweep();
    let settled = false;
    return {
      accountDelayed: admitted.accountDelayed,
      succeeded: async () => {
        if (settled) return;
        settled = true;
        await this.#db.delete(authSignInFailures).where(eq(authSignInFailures.id, admitted.id));
      },
    };
  }

  #limitOf(bucket: TThrottleBucket): number {
    const limits = this.#limits;
    if (bucket === 'account') return limits.maxPerAccountAllIps;
    if (bucket === 'ip') return limits.maxAccountsPerIp;
    return limits.maxPerAccount;
  }

  #backoff() {
    return { baseSeconds: this.#limits.backoffBaseSeconds, maxSeconds: this.#limits.backoffMaxSeconds };
  }

  /** The counts that apply to this source, with the seconds since each one's last failure. */
  async #stats(tx: TTx, source: TSignInSource): Promise<TBucketStats[]> {
    const { account, ip, deviceId } = source;
    const window = sql`now() - make_interval(mins => ${this.#limits.windowMinutes})`;
    const since = (filter: SQL) =>
      sql`extract(epoch FROM now() - max(created_at) FILTER (WHERE ${filter}))::float8`;
    if (deviceId !== null) {
      const device = sql`device_id = ${deviceId}`;
      const [row] = await queryRows<{ failures: number; since: number | null }>(
        tx,
        sql`SELECT count(*) FILTER (WHERE ${device})::int AS failures, ${since(device)} AS since
            FROM auth_sign_in_failures WHERE account = ${account} AND created_at > ${window}`,
      );
      return [stat('device', row?.failures, row?.since)];
    }
    const pair = sql`ip = ${ip} AND account = ${account} AND device_id IS NULL`;
    const anyIp = sql`account = ${account} AND device_id IS NULL`;
    const sameIp = sql`ip = ${ip} AND device_id IS NULL`;
    const [row] = await queryRows<{
      pair: number;
      pair_since: number | null;
      any_ip: number;
      any_ip_since: number | null;
      accounts: number;
      ip_since: number | null;
    }>(
      tx,
      sql`SELECT count(*) FILTER (WHERE ${pair})::int AS pair, ${since(pair)} AS pair_since,
                 count(*) FILTER (WHERE ${anyIp})::int AS any_ip, ${since(anyIp)} AS any_ip_since,
                 count(DISTINCT account) FILTER (WHERE ${sameIp})::int AS accounts,
                 ${since(sameIp)} AS ip_since
          FROM auth_sign_in_failures
          WHERE (account = ${account} OR ip = ${ip}) AND created_at > ${window}`,
    );
    return [
      stat('account_ip', row?.pair, row?.pair_since),
      stat('account', row?.any_ip, row?.any_ip_since),
      stat('ip', row?.accounts, row?.ip_since),
    ];
  }

  /** Old rows are useless; drop them now and then (any replica may do it). */
  async #sweep(): Promise<void> {
    if (Math.random() >= 0.02) return;
    await this.#db
      .delete(authSignInFailures)
      .where(
        lt(
          authSignInFailures.createdAt,
          sql`now() - make_interval(mins => ${this.#limits.windowMinutes * 2})`,
        ),
      );
  }
}

function stat(bucket: TThrottleBucket, failures: unknown, since: unknown): TBucketStats {
  return {
    bucket,
    failures: Number(failures ?? 0),
    sinceLast: since === null || since === undefined ? null : Number(since),
  };
}
