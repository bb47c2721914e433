import { describe, expect, it } from 'vitest';
import { LISTEN_TOPIC_EVENT } from '@ris/domain';
import { createRealtimeConnection, type SocketLike, type SocketOptions } from './realtime-connection.ts';

type Listener = (...args: unknown[]) => void;

function fakeSocket() {
  const handlers = new Map<string, Listener>();
  const managerHandlers = new Map<string, Listener>();
  const emitted: [string, unknown][] = [];
  /** The server's answers not sent yet, in the order the messages went. */
  const acks: ((answer: unknown) => void)[] = [];
  let connects = 0;
  const socket = {
    connected: false,
    connect: () => void (connects += 1),
    disconnect: () => undefined,
    emit: (event: string, payload: unknown, ack?: (answer: unknown) => void) => {
      emitted.push([event, payload]);
      if (ack) acks.push(ack);
    },
    on: (event: string, listener: Listener) => void handlers.set(event, listener),
    io: { on: (event: string, listener: Listener) => void managerHandlers.set(event, listener) },
  };
  const fire = (event: string, ...args: unknown[]): void => handlers.get(event)?.(...args);
  return { socket, emitted, fire, acks, connects: () => connects };
}

function setup() {
  const fake = fakeSocket();
  const timers: { callback: () => void; ms: number }[] = [];
  const warnings: string[] = [];
  const refusals: [string, string][] = [];
  let options: SocketOptions | undefined;
  const connection = createRealtimeConnection({
    createSocket: (opts) => {
      options = opts;
      return fake.socket as unknown as SocketLike;
    },
    getToken: () => 'token-1',
    setTimer: (callback, ms) => timers.push({ callback, ms }),
    clearTimer: () => undefined,
    warn: (message) => warnings.push(message),
    onRefused: (code, message) => void refusals.push([code, message]),
  });
  return { fake, timers, warnings, refusals, connection, options: () => options };
}

describe('realtime connection', () => {
  it('reports a handshake the server refused with a code (a disabled user), not a network failure', () => {
    const { connection, fake, refusals } = setup();
    connection.open();
    fake.fire('connect_error', new Error('xhr poll error'));
    fake.fire(
      'connect_error',
      Object.assign(new Error('Your session has ended.'), { data: { code: 'auth/id-token-revoked' } }),
    );
    expect(refusals).toEqual([['auth/id-token-revoked', 'Your session has ended.']]);
    expect(connection.state.getState().status).toBe('disconnected');
  });

  it('uses the socket options of the specification and sends the token in the handshake', () => {
    const { connection, options } = setup();
    connection.open();
    expect(options()).toMatchObject({
      path: '/ws/',
      transports: ['websocket'],
      reconnectionAttempts: 5,
      reconnectionDelay: 3000,
    });
    let sent: unknown;
    options()?.auth((data) => (sent = data));
    expect(sent).toEqual({ token: 'token-1' });
  });

  it('listens only when connected (warning otherwise) and again after each reconnection', () => {
    const { connection, fake, warnings } = setup();
    connection.open();
    connection.listen('worklist');
    expect(fake.emitted).toEqual([]);
    expect(warnings).toHaveLength(1);
    fake.socket.connected = true;
    fake.fire('connect');
    expect(connection.state.getState().status).toBe('connected');
    connection.listen('notification-u1');
    expect(fake.emitted).toEqual([
      ['listen_topic', { topic: 'worklist' }],
      ['listen_topic', { topic: 'notification-u1' }],
    ]);
    fake.fire('disconnect', 'transport close');
    expect(connection.state.getState().status).toBe('disconnected');
    fake.fire('connect');
    expect(fake.emitted.slice(2)).toEqual([
      ['listen_topic', { topic: 'worklist' }],
      ['listen_topic', { topic: 'notification-u1' }],
    ]);
  });

  it('says it rejoined once the server answered every topic, after each connection, and not after a closed one', () => {
    const { connection, fake } = setup();
    let rejoined = 0;
    const stop = connection.onRejoined(() => (rejoined += 1));
    connection.open();
    connection.listen('worklist');
    connection.listen('notification-u1');
    fake.socket.connected = true;
    fake.fire('connect');
    expect(fake.acks).toHaveLength(2);
    fake.acks.shift()?.({ ok: true });
    expect(rejoined).toBe(0);
    fake.acks.shift()?.({ ok: true });
    expect(rejoined).toBe(1);
    // A reconnection rejoins again: messages sent while it was down never arrived.
    fake.fire('disconnect', 'transport close');
    fake.fire('connect');
    for (const ack of fake.acks.splice(0)) ack({ ok: true });
    expect(rejoined).toBe(2);
    // Answers reaching a closed connection (signed out) tell no one.
    fake.fire('connect');
    connection.close();
    for (const ack of fake.acks.splice(0)) ack({ ok: true });
    expect(rejoined).toBe(2);
    stop();
  });

  it('retries 3 s after a server-initiated disconnect', () => {
    const { connection, fake, timers } = setup();
    connection.open();
    fake.fire('disconnect', 'transport close');
    expect(timers).toHaveLength(0);
    fake.fire('disconnect', 'io server disconnect');
    expect(timers.map((timer) => timer.ms)).toEqual([3000]);
    timers[0]?.callback();
    expect(fake.connects()).toBe(1);
  });

  it('passes typed messages to listeners and drops ones without a type', () => {
    const { connection, fake } = setup();
    const seen: unknown[] = [];
    connection.subscribe((message) => seen.push(message));
    connection.open();
    fake.fire('message', { type: 'worklist-status-update', data: { action: 'delete' } });
    fake.fire('message', { data: 1 });
    expect(seen).toEqual([{ type: 'worklist-status-update', data: { action: 'delete' } }]);
  });
});

describe('realtime connection with a socket library loaded on first use', () => {
  function lazySetup() {
    const fake = fakeSocket();
    let disconnected = 0;
    fake.socket.disconnect = () => void (disconnected += 1);
    let load: (socket: SocketLike) => void = () => undefined;
    let fail: (error: Error) => void = () => undefined;
    let created = 0;
    const connection = createRealtimeConnection({
      createSocket: () => {
        created += 1;
        return new Promise<SocketLike>((resolve, reject) => {
          load = resolve;
          fail = reject;
        });
      },
      getToken: () => 'token-1',
      warn: () => undefined,
    });
    const loaded = () => load(fake.socket as unknown as SocketLike);
    return {
      fake,
      connection,
      loaded,
      fail: (e: Error) => fail(e),
      created: () => created,
      disconnected: () => disconnected,
    };
  }

  it('is connecting while the library loads, opens once, and then works as usual', async () => {
    const { fake, connection, loaded, created } = lazySetup();
    connection.open();
    connection.open();
    expect(created()).toBe(1);
    expect(connection.state.getState().status).toBe('connecting');
    loaded();
    await Promise.resolve();
    connection.listen('worklist');
    fake.socket.connected = true;
    fake.fire('connect');
    expect(connection.state.getState().status).toBe('connected');
    expect(fake.emitted).toEqual([[LISTEN_TOPIC_EVENT, { topic: 'worklist' }]]);
  });

  it('drops a socket that arrives after sign-out closed the connection', async () => {
    const { connection, loaded, disconnected } = lazySetup();
    connection.open();
    connection.close();
    loaded();
    await Promise.resolve();
    expect(disconnected()).toBe(1);
    expect(connection.state.getState().status).toBe('disconnected');
  });

  it('says disconnected when the library cannot be loaded, and may try again', async () => {
    const { connection, fail, created } = lazySetup();
    connection.open();
    fail(new Error('offline'));
    await Promise.resolve();
    await Promise.resolve();
    expect(connection.state.getState().status).toBe('disconnected');
    connection.open();
    expect(created()).toBe(2);
  });
});
