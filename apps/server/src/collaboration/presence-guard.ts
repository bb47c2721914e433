// Part of the authentication concern: presence (Yjs awareness) is what the server says it is. A
// connection speaks only for its own awareness client, under the user's name as the server knows
// it, and may claim to be a writable editor only when it is one: the editors elect among writable
// (and focused) ones who applies content inserted at the caret (insert-report-content), so a reader
// or a forged peer claiming that would make dictated text vanish.
import type { beforeHandleAwarenessPayload, Connection, Document } from '@hocuspocus/server';
import { isClientContext, type TClientContext } from './collaboration-context.ts';

function userIdOf(state: unknown): unknown {
  if (!state || typeof state !== 'object' || !('user' in state)) return undefined;
  const user: unknown = state.user;
  return user && typeof user === 'object' && 'id' in user ? user.id : undefined;
}

/**
 * May this connection speak for the awareness client? Its own client(s), yes. A connection that has
 * none yet takes the first that has a state: a client id nobody uses, or one shown for the same user (a provider
 * reconnecting before the server noticed its old connection ended, here or on another replica),
 * which it then takes over from the old connection.
 */
function speaksFor(
  document: Document,
  connection: Connection,
  userId: string,
  clientId: number,
  state: Record<string, unknown>,
) {
  const own = document.getClients(connection);
  if (own.has(clientId)) return true;
  // An empty state claims nothing (Hocuspocus' scratch awareness adds its own, which never applies).
  if (own.size > 0 || Object.keys(state).length === 0) return false;
  const current = document.awareness.getStates().get(clientId);
  if (current && userIdOf(current) !== userId) return false;
  for (const other of document.getConnections()) {
    if (other !== connection) document.getClients(other).delete(clientId);
  }
  own.add(clientId);
  return true;
}

/** Rewrites an inbound awareness update in place (beforeHandleAwareness): see the file's comment. */
export function guardPresence({ context, connection, document, states }: beforeHandleAwarenessPayload): void {
  if (!connection || !isClientContext(context)) return;
  const client: TClientContext = context;
  for (const [clientId, state] of states) {
    if (!speaksFor(document, connection, client.principal.userId, clientId, state)) {
      states.delete(clientId);
      continue;
    }
    const user: unknown = state.user;
    if (user && typeof user === 'object') {
      state.user = { ...user, id: client.principal.userId, name: client.displayName };
    }
    if ('presence' in state) {
      const presence: unknown = state.presence;
      state.presence = {
        ...(presence && typeof presence === 'object' ? presence : {}),
        writable: client.access === 'edit',
      };
    }
  }
}
