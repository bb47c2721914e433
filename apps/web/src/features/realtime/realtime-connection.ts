import {
  LISTEN_TOPIC_EVENT,
  REALTIME_MESSAGE_EVENT,
  SOCKET_PATH,
  SOCKET_RECONNECTION_ATTEMPTS,
  SOCKET_RECONNECTION_DELAY_MS,
  SOCKET_SERVER_DISCONNECT_RETRY_MS,
  SOCKET_TRANSPORTS,
} from '@ris/domain';
import { createStore } from 'zustand';

export type TConnectionState = 'connecting' | 'connected' | 'disconnected';

/** The part of a socket.io client socket this module uses (a fake in tests). */
export interface SocketLike {
  readonly connected: boolean;
  connect(): unknown;
  disconnect(): unknown;
  /** With `ack`: called with the server's answer once it has handled the message. */
  emit(event: string, payload: unknown, ack?: (answer: unknown) => void): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
  io: { on(event: string, listener: (...args: never[]) => void): unknown };
}

export interface SocketOptions {
  path: string;
  transports: string[];
  withCredentials: boolean;
  autoConnect: boolean;
  reconnectionAttempts: number;
  reconnectionDelay: number;
  auth: (callback: (data: { token: string | null }) => void) => void;
}

export interface RealtimeDeps {
  /** May load the socket library first (the app imports socket.io-client when it first connects). */
  createSocket: (options: SocketOptions) => SocketLike | Promise<SocketLike>;
  /** The current ID token, read at every (re)connection. */
  getToken: () => string | null;
  /** The server refused the handshake with an error code (e.g. the user was disabled meanwhile). */
  onRefused?: (code: string, message: string) => void;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  warn?: (message: string) => void;
}

export type TRealtimeListener = (message: { type: string; data: unknown }) => void;

/**
 * Called each time the connection has (re)joined every topic it listens to (the server answered each
 * listen_topic). Messages published before that, while it was down or still joining, never arrive:
 * what a screen shows from them is to be read again.
 */
export type TRejoinListener = () => void;

/** The socket options of spec §7: /ws/, websocket only, 5 attempts 3 s apart, token in the handshake. */
function socketOptions(getToken: () => string | null): SocketOptions {
  return {
    path: SOCKET_PATH,
    transports: [...SOCKET_TRANSPORTS],
    withCredentials: true,
    autoConnect: true,
    reconnectionAttempts: SOCKET_RECONNECTION_ATTEMPTS,
    reconnectionDelay: SOCKET_RECONNECTION_DELAY_MS,
    auth: (callback) => callback({ token: getToken() }),
  };
}

/**
 * One realtime connection: its state (connected on connect or reconnect, not on error or disconnect),
 * the topics to listen to (sent again after every reconnection), the message listeners and those told
 * when a (re)connection has joined its topics (onRejoined). After a
 * server-initiated disconnect, which socket.io does not retry by itself, it connects again after 3 s.
 */
export function createRealtimeConnection(deps: RealtimeDeps) {
  const setTimer = deps.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const warn = deps.warn ?? ((message) => console.warn(message));
  const state = createStore<{ status: TConnectionState }>()(() => ({ status: 'disconnected' }));
  const topics = new Set<string>();
  const listeners = new Set<TRealtimeListener>();
  const rejoinListeners = new Set<TRejoinListener>();
  let socket: SocketLike | null = null;
  /** Counts open() and close() calls: a socket created for an older one is dropped. */
  let generation = 0;
  let opening = false;
  let retry: unknown = null;

  const setStatus = (status: TConnectionState): void => state.setState({ status });

  function emitTopic(topic: string): void {
    if (socket?.connected) socket.emit(LISTEN_TOPIC_EVENT, { topic });
    else warn(`Realtime: not connected, listening to ${topic} once connected`);
  }

  function open(): void {
    if (socket || opening) return;
    setStatus('connecting');
    const made = deps.createSocket(socketOptions(deps.getToken));
    if (!(made instanceof Promise)) {
      wire(made);
      return;
    }
    opening = true;
    const mine = ++generation;
    made.then(
      (created) => {
        if (mine !== generation) {
          // Closed (signed out) while the library loaded.
          created.disconnect();
          return;
        }
        opening = false;
        wire(created);
      },
      (error: unknown) => {
        if (mine !== generation) return;
        opening = false;
        setStatus('disconnected');
        console.error('Realtime: the socket library could not be loaded', error);
      },
    );
  }

  function wire(created: SocketLike): void {
    socket = created;
    created.on('connect', () => {
      setStatus('connected');
      // Once the server has answered every topic (joined, or refused), tell the screens to read again
      // what they show from messages: any published while this socket was down or joining was missed.
      let waiting = topics.size;
      const rejoined = () => {
        if (socket !== created) return;
        for (const listener of rejoinListeners) listener();
      };
      for (const topic of topics) {
        created.emit(LISTEN_TOPIC_EVENT, { topic }, () => {
          waiting -= 1;
          if (waiting === 0) rejoined();
        });
      }
      if (waiting === 0) rejoined();
    });
    created.on('connect_error', (error: Error & { data?: { code?: unknown } }) => {
      setStatus('disconnected');
      console.error('Realtime connection error', error.message);
      const code = error.data?.code;
      if (typeof code === 'string') deps.onRefused?.(code, error.message);
    });
    created.on('disconnect', (reason: string) => {
      setStatus('disconnected');
      if (reason === 'io server disconnect') {
        retry = setTimer(() => {
          retry = null;
          if (socket === created) {
            setStatus('connecting');
            created.connect();
          }
        }, SOCKET_SERVER_DISCONNECT_RETRY_MS);
      }
    });
    created.io.on('reconnect_attempt', () => setStatus('connecting'));
    created.io.on('reconnect_failed', () => setStatus('disconnected'));
    created.on(REALTIME_MESSAGE_EVENT, (message: { type?: unknown; data?: unknown } | null) => {
      if (!message || typeof message.type !== 'string') {
        console.warn('Realtime: message without a type', message);
        return;
      }
      const typed = { type: message.type, data: message.data };
      for (const listener of listeners) listener(typed);
    });
  }

  return {
    state,
    open,
    /** Ends the connection and forgets topics (sign-out). */
    close(): void {
      generation++;
      opening = false;
      if (retry !== null) clearTimer(retry);
      retry = null;
      socket?.disconnect();
      socket = null;
      topics.clear();
      setStatus('disconnected');
    },
    /** Subscribes to a topic now if connected (else warns) and again after every reconnection. */
    listen(topic: string): void {
      topics.add(topic);
      emitTopic(topic);
    },
    /** Stops re-subscribing to a topic after reconnections (the server keeps it until then). */
    forget(topic: string): void {
      topics.delete(topic);
    },
    subscribe(listener: TRealtimeListener): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Calls `listener` after every (re)connection has joined its topics (TRejoinListener). */
    onRejoined(listener: TRejoinListener): () => void {
      rejoinListeners.add(listener);
      return () => void rejoinListeners.delete(listener);
    },
  };
}

export type RealtimeConnection = ReturnType<typeof createRealtimeConnection>;
