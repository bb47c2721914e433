// Collaboration concern 1: who may open a report's document, and whether read-write or read-only.
import type {
  beforeHandleAwarenessPayload,
  beforeSyncPayload,
  Extension,
  onAuthenticatePayload,
} from '@hocuspocus/server';
import { eq } from 'drizzle-orm';
import type { TokenVerifier, TPrincipal } from '../auth/principal.ts';
import type { RevocationCache } from '../auth/revocation.ts';
import { accessChanged, principalNow } from '../access/user-changes.ts';
import type { TDb } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { AppError } from '../http/app-error.ts';
import { isClientContext, type TClientContext } from './collaboration-context.ts';
import { guardPresence } from './presence-guard.ts';
import { reportGrantFor } from '../features/reports/report-grant.ts';
import { reportIdOfDocument } from './report-document.ts';
import { RECONNECT } from './store-guards.ts';
import { RefusedUpdate, UPDATE_MESSAGES } from './update-guard.extension.ts';

/**
 * A refused connection. The provider's `onAuthenticationFailed({ reason })` receives `reason`: the
 * API's error code (`NOT_FOUND` for a report outside the caller's scope or a bad document name,
 * `UNAUTHENTICATED`, `auth/id-token-expired`, `auth/id-token-revoked`). The message is empty on
 * purpose: Hocuspocus logs hook errors that have one, and a refusal is not a server error.
 */
export class CollaborationRefusal extends Error {
  readonly reason: string;

  constructor(reason: string) {
    super('');
    this.name = 'CollaborationRefusal';
    this.reason = reason;
  }
}

type TAuthenticationDeps = { db: TDb; verifier: TokenVerifier; cache: RevocationCache };

async function verified(verifier: TokenVerifier, token: string): Promise<TPrincipal> {
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (error instanceof AppError && error.status < 500) throw new CollaborationRefusal(error.code);
    throw error;
  }
}

async function displayNameOf(db: TDb, principal: TPrincipal): Promise<string> {
  const [row] = await db
    .select({ displayName: users.displayName, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, principal.userId));
  const name = row?.displayName || [row?.firstName, row?.lastName].filter(Boolean).join(' ');
  return name || principal.email;
}

/**
 * The provider's `token` is the ID token, verified exactly as on HTTP (signature, expiry, revocation,
 * session, organisation). The report must be visible to the caller (scope), and the report policy
 * decides: 'edit' → read-write, 'read' → read-only (the server drops the connection's document
 * updates and tells the provider `scope: 'readonly'`), 'none' → refused as NOT_FOUND. A COMPLETED
 * report is read-only for everyone (the policy says so).
 * Presence (presence-guard.ts): a connection speaks only for its own awareness client, its `user.name`
 * is the user's name as the server knows it, `user.id` is set, and `presence.writable` is its access.
 * Every change a read-write connection sends is checked against its user as they stand now (after the
 * revocation cache's barrier, so a change to the user committed before the message applies to it even
 * before its NOTIFY arrives): a user disabled, moved, signed out or given another role or radiologist
 * type has the change refused and the connection closed with RECONNECT, so the provider authenticates
 * again and is refused, or comes back with what the new role may do (read-only). Access-watch
 * (access-watch.ts) closes idle connections the same way when the NOTIFY comes.
 */
export function authenticationExtension({ db, verifier, cache }: TAuthenticationDeps): Extension {
  return {
    extensionName: 'ris-authentication',

    async onAuthenticate({ token, documentName, connectionConfig }: onAuthenticatePayload) {
      const reportId = reportIdOfDocument(documentName);
      if (!reportId) throw new CollaborationRefusal('NOT_FOUND');
      if (!token) throw new CollaborationRefusal('UNAUTHENTICATED');
      const principal = await verified(verifier, token);
      const grant = await reportGrantFor(db, principal, reportId);
      if (grant.access === 'none') throw new CollaborationRefusal('NOT_FOUND');
      connectionConfig.readOnly = grant.access === 'read';
      const context: TClientContext = {
        kind: 'client',
        principal,
        displayName: await displayNameOf(db, principal),
        reportId,
        studyId: grant.studyId,
        access: grant.access,
      };
      return context;
    },

    async beforeSync({ connection, type }: beforeSyncPayload) {
      if (connection.readOnly || !UPDATE_MESSAGES.has(type)) return;
      const context: unknown = connection.context;
      if (!isClientContext(context)) return;
      const now = await principalNow(cache, context.principal);
      if (!now || accessChanged(context.principal, now)) {
        // The whole socket, not only this document: a refused update alone closes the document (a
        // CLOSE message), after which the provider neither reconnects nor authenticates again, and
        // its editor would wait for a sync that never comes. A closed socket makes it reconnect.
        connection.webSocket.close(RECONNECT.code, RECONNECT.reason);
        throw new RefusedUpdate(RECONNECT);
      }
    },

    async beforeHandleAwareness(payload: beforeHandleAwarenessPayload) {
      guardPresence(payload);
    },
  };
}
