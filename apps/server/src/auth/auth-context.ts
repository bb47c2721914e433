import type { TPasswordPolicy } from '@ris/domain';
import type { TAuthConfig } from '../config.ts';
import type { TDb } from '../db/client.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import type { DeferredMail } from '../integrations/mail/deferred-mail.ts';
import type { DeviceCookies } from './device-cookies.ts';
import type { IdTokens } from './id-tokens.ts';
import type { RefreshSessions } from './refresh-sessions.ts';
import type { RevocationCache } from './revocation.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';

/** Everything the identity commands share; assembled once by createIdentity. */
export type TAuthContext = {
  db: TDb;
  config: TAuthConfig;
  /** PUBLIC_URL without a trailing slash: links in e-mails. */
  publicUrl: string;
  tokens: IdTokens;
  sessions: RefreshSessions;
  throttle: SignInThrottle;
  /** The device cookies that let a browser which signed in before keep signing in. */
  devices: DeviceCookies;
  cache: RevocationCache;
  mail: DeferredMail;
  /** Announces what the identity stored for others to see (notifications), after it is stored. */
  events: DomainEvents;
  policy: TPasswordPolicy;
  /** An argon2id hash of a random password: unknown accounts cost the same time as known ones. */
  dummyPasswordHash(): Promise<string>;
};
