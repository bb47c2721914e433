import { z } from 'zod';

/** socket.io connection settings shared by the server and the browser client. */
export const SOCKET_PATH = '/ws/';
export const SOCKET_TRANSPORTS = ['websocket'] as const;
export const SOCKET_RECONNECTION_ATTEMPTS = 5;
export const SOCKET_RECONNECTION_DELAY_MS = 3_000;
/** After the server ends the connection (socket.io does not reconnect by itself then). */
export const SOCKET_SERVER_DISCONNECT_RETRY_MS = 3_000;

/** Event the client emits, with { topic }, to subscribe to a topic. */
export const LISTEN_TOPIC_EVENT = 'listen_topic';
export const ZListenTopicPayload = z.object({ topic: z.string().min(1) });
export type TListenTopicPayload = z.infer<typeof ZListenTopicPayload>;

export const GENERAL_TOPIC = 'general';
export const WORKLIST_TOPIC = 'worklist';

function requireId(id: string, what: string): string {
  if (id.trim() === '') throw new RangeError(`A ${what} topic needs a non-empty id`);
  return id;
}

/** Topic of one worklist item's events: 'worklist-{id}'. */
export function worklistItemTopic(worklistId: string): string {
  return `worklist-${requireId(worklistId, 'worklist item')}`;
}

/** Topic of one user's notifications: 'notification-{userId}'. */
export function notificationTopic(userId: string): string {
  return `notification-${requireId(userId, 'notification')}`;
}

export type TRealtimeTopic =
  | { kind: 'general' }
  | { kind: 'worklist' }
  | { kind: 'worklist-item'; worklistId: string }
  | { kind: 'notification'; userId: string };

/** What a topic string refers to (so the server can authorize a subscription), or null if none. */
export function parseRealtimeTopic(topic: string): TRealtimeTopic | null {
  if (topic === GENERAL_TOPIC) return { kind: 'general' };
  if (topic === WORKLIST_TOPIC) return { kind: 'worklist' };
  const item = /^worklist-(.+)$/.exec(topic);
  if (item?.[1] && item[1].trim() !== '') return { kind: 'worklist-item', worklistId: item[1] };
  const notification = /^notification-(.+)$/.exec(topic);
  if (notification?.[1] && notification[1].trim() !== '')
    return { kind: 'notification', userId: notification[1] };
  return null;
}

/** Types of incoming realtime messages; others are only logged by the client. */
export const REALTIME_MESSAGE_TYPES = [
  'worklist-status-update',
  'insert-report-content',
  'user-notification',
  'dictation-recordings-changed',
] as const;
export type TRealtimeMessageType = (typeof REALTIME_MESSAGE_TYPES)[number];
export const ZRealtimeMessageType = z.enum(REALTIME_MESSAGE_TYPES);

/**
 * The payload of the socket.io `message` event (spec §7: "incoming message is passed to a handler").
 * worklist-status-update carries the changed item, or the id and facility of a deleted one.
 */
export type TRealtimeMessage =
  | { type: 'worklist-status-update'; data: { action: 'upsert'; item: unknown } }
  | { type: 'worklist-status-update'; data: { action: 'delete'; id: string; facility_fk: string } }
  | { type: 'user-notification'; data: { notification: unknown } }
  | { type: 'insert-report-content'; data: { report_id: string; content: string } }
  /** The report's recorded dictations changed (sent on 'worklist-{studyId}'): refetch the list. */
  | { type: 'dictation-recordings-changed'; data: { report_id: string } };

/** The socket.io event name every realtime message is sent under. */
export const REALTIME_MESSAGE_EVENT = 'message';

/**
 * What the server answers (socket.io acknowledgement) to `listen_topic`: ok, or why the topic was
 * refused (UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, BAD_REQUEST). A refused topic delivers nothing.
 */
export type TListenTopicAck =
  { ok: true; topic: string } | { ok: false; topic: string | null; error: { code: string; message: string } };
