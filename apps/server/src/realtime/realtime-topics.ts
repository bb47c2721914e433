import {
  parseRealtimeTopic,
  WORKLIST_TOPIC,
  ZListenTopicPayload,
  ZUuid,
  type TListenTopicAck,
} from '@ris/domain';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { loadScope } from '../access/scope.ts';
import { isStudyVisible } from '../access/studies-scope.ts';
import type { TDb } from '../db/client.ts';
import { referringPhysicians } from '../db/schema/index.ts';
import { AppError } from '../http/app-error.ts';
import { toSocketError } from './realtime-auth.ts';
import { rooms, type TRealtimeSocket } from './realtime-rooms.ts';

/**
 * The rooms that carry the worklist to this user: admins the whole organisation, referring physicians
 * the studies they referred, everyone else the facilities they work at — resolved from the database
 * now, so a change of assignment applies at the next subscription.
 */
export async function worklistRoomsOf(db: TDb, socket: TRealtimeSocket): Promise<string[]> {
  // Fresh: run once per subscription or change notice, whose news may precede the verifier cache's.
  const scope = await loadScope(db, socket.data.principal, { fresh: true });
  if (scope.principal.role === 'REFERRING_PHYSICIAN') {
    const physicians = await db
      .select({ id: referringPhysicians.id })
      .from(referringPhysicians)
      .where(
        and(
          eq(referringPhysicians.userId, scope.principal.userId),
          eq(referringPhysicians.organisationId, scope.organisationId),
        ),
      );
    return physicians.map((physician) => rooms.referrer(physician.id));
  }
  if (scope.allFacilities) return [rooms.organisationWorklist(scope.organisationId)];
  return scope.facilityIds.map((id) => rooms.facility(id));
}

/** Replaces the socket's worklist rooms by the given ones (leaving those it no longer may see). */
export async function setWorklistRooms(socket: TRealtimeSocket, next: string[]): Promise<void> {
  const previous = socket.data.worklistRooms ?? [];
  await Promise.all(previous.filter((room) => !next.includes(room)).map((room) => socket.leave(room)));
  await socket.join(next);
  socket.data.worklistRooms = next;
}

/** Rooms to join for one topic, or throws an AppError saying why the caller may not listen to it. */
async function roomsForTopic(db: TDb, socket: TRealtimeSocket, topic: string): Promise<string[]> {
  const parsed = parseRealtimeTopic(topic);
  const { principal } = socket.data;
  switch (parsed?.kind) {
    case 'general': {
      if (!principal.organisationId)
        throw new AppError('FORBIDDEN', 'The user is not assigned to any organisation');
      return [rooms.general(principal.organisationId)];
    }
    case 'worklist':
      return worklistRoomsOf(db, socket);
    case 'worklist-item': {
      if (!ZUuid.safeParse(parsed.worklistId).success) throw AppError.notFound('Worklist item');
      const scope = await loadScope(db, principal);
      if (!(await isStudyVisible(db, scope, parsed.worklistId))) throw AppError.notFound('Worklist item');
      return [rooms.item(parsed.worklistId)];
    }
    case 'notification': {
      if (parsed.userId !== principal.userId)
        throw new AppError('FORBIDDEN', "Only a user's own notifications can be listened to");
      return [rooms.notification(principal.userId)];
    }
    case undefined:
      throw new AppError('BAD_REQUEST', `topic: unknown topic "${topic}"`);
  }
}

/** Rooms one socket may be in (its own, its user's, worklist facilities, items, notifications). */
export const MAX_ROOMS_PER_SOCKET = 1_000;

/** Handles one `listen_topic`: validates, authorises, joins, and says what happened. */
export async function listenTopic(
  db: TDb,
  log: FastifyBaseLogger,
  socket: TRealtimeSocket,
  payload: unknown,
): Promise<TListenTopicAck> {
  const parsed = ZListenTopicPayload.safeParse(payload);
  if (!parsed.success) {
    return {
      ok: false,
      topic: null,
      error: { code: 'BAD_REQUEST', message: 'topic: a non-empty topic is required' },
    };
  }
  const { topic } = parsed.data;
  if (socket.rooms.size >= MAX_ROOMS_PER_SOCKET) {
    const message = `topic: at most ${MAX_ROOMS_PER_SOCKET} subscriptions per connection`;
    return { ok: false, topic, error: { code: 'TOO_MANY_REQUESTS', message } };
  }
  try {
    const joined = await roomsForTopic(db, socket, topic);
    if (topic === WORKLIST_TOPIC) await setWorklistRooms(socket, joined);
    else await socket.join(joined);
    return { ok: true, topic };
  } catch (error) {
    if (!(error instanceof AppError)) log.error({ err: error, topic }, 'listen_topic failed');
    const { data, message } = toSocketError(error);
    return { ok: false, topic, error: { code: data.code, message } };
  }
}
