import { act } from 'react';
import { createRealtimeConnection, type SocketLike } from './realtime-connection.ts';

/**
 * Tests only: a realtime connection over a fake socket that is connected: `deliver` hands it a server message,
 * `reconnect` connects it again (the server answers every topic at once, so it has rejoined them).
 */
export function liveConnection() {
  let onMessage: ((message: unknown) => void) | undefined;
  let onConnect: (() => void) | undefined;
  const socket = {
    connected: true,
    connect: () => undefined,
    disconnect: () => undefined,
    emit: (_event: string, _payload: unknown, ack?: (answer: unknown) => void) => ack?.({ ok: true }),
    on: (event: string, listener: (message: unknown) => void) => {
      if (event === 'message') onMessage = listener;
      if (event === 'connect') onConnect = () => listener(undefined);
    },
    io: { on: () => undefined },
  };
  const connection = createRealtimeConnection({
    createSocket: () => socket as unknown as SocketLike,
    getToken: () => 'token',
  });
  connection.open();
  return {
    connection,
    deliver: (message: unknown) => act(() => onMessage?.(message)),
    reconnect: () => act(() => onConnect?.()),
  };
}
