// A socket keeps the access its user has now, not the one it connected with: whenever the user changes
// (NOTIFY on the revocation channel, whoever made the change) each replica re-checks its own sockets of
// that user, and every message a socket sends is answered with the user's state as of that message.
import type { TListenTopicAck } from '@ris/domain';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { idTokenRevoked } from '../auth/auth-errors.ts';
import type { RevocationCache, TUserTokenState } from '../auth/revocation.ts';
import { accessChanged, currentPrincipal } from '../access/user-changes.ts';
import { loadScope, type TScope } from '../access/scope.ts';
import { visibleStudies } from '../access/studies-scope.ts';
import type { TDb } from '../db/client.ts';
import { oneOf } from '../db/one-of.ts';
import { queryRows } from '../db/rows.ts';
import { AppError } from '../http/app-error.ts';
import { toSocketError } from './realtime-auth.ts';
import { rooms, type TRealtimeSocket } from './realtime-rooms.ts';
import { listenTopic, setWorklistRooms, worklistRoomsOf } from './realtime-topics.ts';

const ITEM_ROOM_PREFIX = rooms.item('');

/** The scope of the socket's principal, or null when it has none any more (no role, no organisation). */
async function scopeOrNone(db: TDb, socket: TRealtimeSocket): Promise<TScope | null> {
  try {
    // Fresh: this news may reach us before the verifier cache's own listener.
    return await loadScope(db, socket.data.principal, { fresh: true });
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/** Leaves the 'worklist-{id}' rooms of studies the socket's user may no longer see. */
async function leaveHiddenItems(db: TDb, socket: TRealtimeSocket, scope: TScope | null): Promise<void> {
  const joined = [...socket.rooms].filter((room) => room.startsWith(ITEM_ROOM_PREFIX));
  if (joined.length === 0) return;
  const ids = joined.map((room) => room.slice(ITEM_ROOM_PREFIX.length));
  const visible = scope
    ? await queryRows<{ id: string }>(
        db,
        sql`select id from studies where ${oneOf('"studies"."id"', ids, 'uuid')} and ${visibleStudies(scope)}`,
      )
    : [];
  const kept = new Set(visible.map((row) => rooms.item(row.id)));
  await Promise.all(joined.filter((room) => !kept.has(room)).map((room) => socket.leave(room)));
}

/** Each socket's room changes, one after the other: a re-check and a subscription never interleave. */
const queues = new WeakMap<TRealtimeSocket, Promise<unknown>>();

function serially<T>(socket: TRealtimeSocket, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(socket) ?? Promise.resolve()).then(task);
  queues.set(
    socket,
    run.catch(() => undefined),
  );
  return run;
}

async function applyState(db: TDb, socket: TRealtimeSocket, state: TUserTokenState | null): Promise<void> {
  const principal = currentPrincipal(state, socket.data.principal);
  if (!principal) {
    socket.disconnect(true);
    return;
  }
  socket.data.principal = principal;
  const scope = await scopeOrNone(db, socket);
  if (socket.data.worklistRooms)
    await setWorklistRooms(socket, scope ? await worklistRoomsOf(db, socket) : []);
  await leaveHiddenItems(db, socket, scope);
}

/**
 * Applies a user's current state to one socket: disconnected when its sign-in no longer holds
 * (disabled, moved to another organisation, signed out, session ended); else it takes the user's
 * current role and keeps only the worklist and worklist-item rooms that role and those facilities may
 * see. ('general' is the organisation's, 'notification' the user's own: both hold while signed in.)
 */
export function recheckSocket(
  db: TDb,
  socket: TRealtimeSocket,
  state: TUserTokenState | null,
): Promise<void> {
  return serially(socket, () => applyState(db, socket, state));
}

function refusal(error: unknown): TListenTopicAck {
  const { data, message } = toSocketError(error);
  return { ok: false, topic: null, error: { code: data.code, message } };
}

/**
 * Handles one `listen_topic` as the user stands now: a change committed before the message applies to
 * it even if its NOTIFY has not arrived (RevocationCache.current waits for the cache's barrier). A
 * socket whose sign-in no longer holds is answered auth/id-token-revoked and disconnected; one whose
 * user has another role or radiologist type now is re-checked (recheckSocket) before it joins more.
 */
export function listenTopicNow(
  deps: { db: TDb; cache: RevocationCache; log: FastifyBaseLogger },
  socket: TRealtimeSocket,
  payload: unknown,
): Promise<TListenTopicAck> {
  return serially(socket, () => listenAsUserNow(deps, socket, payload));
}

async function listenAsUserNow(
  deps: { db: TDb; cache: RevocationCache; log: FastifyBaseLogger },
  socket: TRealtimeSocket,
  payload: unknown,
): Promise<TListenTopicAck> {
  try {
    const state = await deps.cache.current(socket.data.principal.userId);
    const principal = currentPrincipal(state, socket.data.principal);
    if (!principal) {
      // After the answer is sent: the client learns why before the disconnect.
      setImmediate(() => socket.disconnect(true));
      return refusal(idTokenRevoked());
    }
    if (accessChanged(socket.data.principal, principal)) await applyState(deps.db, socket, state);
    else socket.data.principal = principal;
  } catch (error) {
    deps.log.error({ err: error }, 'listen_topic: checking the user failed');
    return refusal(error);
  }
  return listenTopic(deps.db, deps.log, socket, payload);
}
