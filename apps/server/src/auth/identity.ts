import { randomBytes } from 'node:crypto';
import type { TConfig } from '../config.ts';
import type { TDatabase } from '../db/client.ts';
import { DomainEvents } from '../events/domain-events.ts';
import { DeferredMail } from '../integrations/mail/deferred-mail.ts';
import { createMailer, type Mailer } from '../integrations/mail/mailer.ts';
import type { TAuthContext } from './auth-context.ts';
import { DeviceCookies } from './device-cookies.ts';
import { IdTokens } from './id-tokens.ts';
import { passwordPolicy } from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import type { TokenVerifier } from './principal.ts';
import { RefreshSessions } from './refresh-sessions.ts';
import { startRevocationListener } from './revocation-listener.ts';
import { RevocationCache } from './revocation.ts';
import { SignInThrottle } from './sign-in-throttle.ts';
import { resolveTokenSecret } from './token-secret.ts';
import { IdTokenVerifier } from './token-verifier.ts';

export type TIdentityLogger = {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
};

/** The identity module of one server process: commands' context, the token verifier, the mailer. */
export type Identity = {
  context: TAuthContext;
  verifier: TokenVerifier;
  mailer: Mailer;
  /** Waits for e-mails sent after a response (tests; graceful shutdown). */
  settled(): Promise<void>;
  close(): Promise<void>;
};

export async function createIdentity(options: {
  config: TConfig;
  database: TDatabase;
  log: TIdentityLogger;
  mailer?: Mailer;
  /** Where notifications the identity creates (attack alerts) are announced after they are stored. */
  events?: DomainEvents;
}): Promise<Identity> {
  const { config, database, log } = options;
  const { auth } = config;
  const secret = await resolveTokenSecret(auth.tokenSecret, config.dataDir);
  if (secret.source !== 'config') {
    log.warn(
      { file: secret.file },
      `AUTH_TOKEN_SECRET is not set: ID tokens are signed with a secret ${secret.source === 'generated' ? 'generated now and ' : ''}kept in ${secret.file}. Set AUTH_TOKEN_SECRET (the same value on every replica) before running more than one.`,
    );
  }
  const tokens = new IdTokens(secret.secret, {
    issuer: config.publicUrl,
    ttlSeconds: auth.idTokenTtlSeconds,
  });
  const cache = new RevocationCache(database.db);
  const stopListening = await startRevocationListener(database, cache, log);
  const mailer = options.mailer ?? createMailer(config, database.db, log);
  const mail = new DeferredMail(mailer, log);
  let dummyHash: Promise<string> | undefined;

  const context: TAuthContext = {
    db: database.db,
    config: auth,
    publicUrl: config.publicUrl,
    tokens,
    sessions: new RefreshSessions(database.db, {
      ttlDays: auth.refreshTtlDays,
      reuseGraceSeconds: auth.refreshReuseGraceSeconds,
    }),
    throttle: new SignInThrottle(database.db, {
      maxPerAccount: auth.maxFailuresPerAccount,
      maxPerAccountAllIps: auth.maxFailuresPerAccountAllIps,
      maxAccountsPerIp: auth.maxAccountsPerIp,
      windowMinutes: auth.failureWindowMinutes,
      backoffBaseSeconds: auth.backoffBaseSeconds,
      backoffMaxSeconds: auth.backoffMaxSeconds,
    }),
    devices: new DeviceCookies(secret.secret, auth.deviceCookieDays),
    events: options.events ?? new DomainEvents(),
    cache,
    mail,
    policy: passwordPolicy(auth.passwordMinLength),
    dummyPasswordHash: () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex'))),
  };

  return {
    context,
    verifier: new IdTokenVerifier(tokens, cache),
    mailer,
    settled: () => mail.settled(),
    async close() {
      await mail.settled();
      await stopListening();
      await mailer.close();
    },
  };
}
