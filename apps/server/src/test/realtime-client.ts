// socket.io test clients: real sockets over a real listening server, as the browser connects.
import {
  LISTEN_TOPIC_EVENT,
  REALTIME_MESSAGE_EVENT,
  SOCKET_PATH,
  SOCKET_TRANSPORTS,
  type TListenTopicAck,
  type TRealtimeMessage,
} from '@ris/domain';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';

export type TTestSocket = Socket;

/** A refused handshake: the message and the `data.code` the server sent. */
export type TConnectError = { message: string; code: string | undefined };

function socketOptions(options: Partial<ManagerOptions & SocketOptions>) {
  return {
    path: SOCKET_PATH,
    transports: [...SOCKET_TRANSPORTS],
    reconnection: false,
    forceNew: true,
    ...options,
  };
}

/** Opens a socket; resolves once connected, rejects with the server's error when refused. */
export function connectSocket(
  url: string,
  options: Partial<ManagerOptions & SocketOptions> = {},
): Promise<TTestSocket> {
  const socket = io(url, socketOptions(options));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error: Error & { data?: { code?: string } }) => {
      socket.close();
      reject(Object.assign(error, { code: error.data?.code }));
    });
  });
}

/** Opens a socket that must be refused; resolves with why. */
export async function refusedHandshake(
  url: string,
  options: Partial<ManagerOptions & SocketOptions> = {},
): Promise<TConnectError> {
  try {
    const socket = await connectSocket(url, options);
    socket.close();
  } catch (error) {
    const refused = error as Error & { code?: string };
    return { message: refused.message, code: refused.code };
  }
  throw new Error('the handshake was accepted');
}

/** Emits listen_topic and waits for the server's answer. */
export function listenTopic(socket: TTestSocket, topic: unknown): Promise<TListenTopicAck> {
  return socket.emitWithAck(LISTEN_TOPIC_EVENT, { topic }) as Promise<TListenTopicAck>;
}

/**
 * Emits listen_topic unless the socket is, or becomes, disconnected before the answer: a message sent
 * on a closed socket waits in the client's buffer for a reconnection that never comes, and one in
 * flight when the socket closes is rejected, so both count as 'disconnected'.
 */
export function listenTopicOrDisconnected(
  socket: TTestSocket,
  topic: unknown,
): Promise<TListenTopicAck | 'disconnected'> {
  if (socket.disconnected) return Promise.resolve('disconnected');
  const answered = listenTopic(socket, topic).catch((error: unknown) => {
    // The client rejects an unanswered message when its socket closes.
    if (socket.disconnected) return 'disconnected' as const;
    throw error;
  });
  return Promise.race([answered, disconnected(socket).then(() => 'disconnected' as const)]);
}

/**
 * Every realtime message a socket receives, in order. `next(predicate)` resolves with the first
 * message (already received or still to come) that matches; nothing here waits on a clock.
 */
export class MessageLog {
  readonly messages: TRealtimeMessage[] = [];
  readonly #waiters: {
    match: (message: TRealtimeMessage) => boolean;
    resolve: (m: TRealtimeMessage) => void;
  }[] = [];

  constructor(socket: TTestSocket) {
    socket.on(REALTIME_MESSAGE_EVENT, (message: TRealtimeMessage) => {
      this.messages.push(message);
      for (const waiter of [...this.#waiters]) {
        if (waiter.match(message)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
  }

  next(match: (message: TRealtimeMessage) => boolean): Promise<TRealtimeMessage> {
    const found = this.messages.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  /** Messages received before the first one matching `marker` (the marker must have arrived). */
  before(marker: (message: TRealtimeMessage) => boolean): TRealtimeMessage[] {
    const index = this.messages.findIndex(marker);
    if (index < 0) throw new Error('the marker message has not arrived');
    return this.messages.slice(0, index);
  }
}

/** Matches a worklist-status-update about the given item (upsert or delete). */
export function aboutItem(id: string) {
  return (message: TRealtimeMessage): boolean =>
    message.type === 'worklist-status-update' &&
    (message.data.action === 'delete' ? message.data.id === id : itemId(message.data.item) === id);
}

/** Matches a user-notification with the given notification id. */
export function notificationWithId(id: string) {
  return (message: TRealtimeMessage): boolean =>
    message.type === 'user-notification' && notificationId(message.data.notification) === id;
}

function itemId(item: unknown): unknown {
  return item && typeof item === 'object' && 'id' in item ? item.id : undefined;
}

function notificationId(notification: unknown): unknown {
  return notification && typeof notification === 'object' && 'id' in notification
    ? notification.id
    : undefined;
}

/** Resolves with the reason when the socket is disconnected. */
export function disconnected(socket: TTestSocket): Promise<string> {
  if (socket.disconnected) return Promise.resolve('already disconnected');
  return new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
}
