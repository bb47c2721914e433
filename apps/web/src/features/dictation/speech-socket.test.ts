// The speech socket client against a real WebSocket server on 127.0.0.1 that speaks the contract
// (packages/domain dictation.schemas.ts), as the RIS server does.
import { ZSpeechClientMessage, type TSpeechServerMessage } from '@ris/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { openSpeechSocket, speechSocketUrl, type TSpeechSocketHandlers } from './speech-socket.ts';

const REPORT_ID = '5b0d7c1e-8a53-4d2b-9d67-1f2a3b4c5d6e';

type TScript = (socket: ServerSocket, received: TReceived) => void;
interface TReceived {
  texts: unknown[];
  audioBytes: number;
  /** Resolves when the client's message count reaches n. */
  next: () => Promise<unknown>;
}

const servers: WebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A speech server: records what the client sends, and lets the test answer. */
async function speechServer(script: TScript): Promise<{ url: string; received: TReceived }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(server);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const waiting: ((value: unknown) => void)[] = [];
  const queue: unknown[] = [];
  const received: TReceived = {
    texts: [],
    audioBytes: 0,
    next: () => {
      const queued = queue.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
  server.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => {
      let entry: unknown;
      if (isBinary) {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        received.audioBytes += bytes.byteLength;
        entry = { audio: bytes.byteLength };
      } else {
        entry = JSON.parse(data.toString()) as unknown;
        received.texts.push(entry);
      }
      const waiter = waiting.shift();
      if (waiter) waiter(entry);
      else queue.push(entry);
    });
    script(socket, received);
  });
  return { url: `ws://127.0.0.1:${port}/api/v1/speech`, received };
}

const say = (socket: ServerSocket, message: TSpeechServerMessage) => socket.send(JSON.stringify(message));

/** Collects the handlers' calls; `ended` resolves with the end's error (or null). */
function recorder() {
  const events: string[] = [];
  let resolveEnded: (error: unknown) => void = () => undefined;
  const ended = new Promise<unknown>((resolve) => (resolveEnded = resolve));
  const handlers: Required<TSpeechSocketHandlers> = {
    onReady: (provider) => events.push(`ready ${provider}`),
    onPartial: (text) => events.push(`partial ${text}`),
    onFinal: (text, segments) => events.push(`final ${text} ${JSON.stringify(segments)}`),
    onEnded: (error) => {
      events.push(`ended ${error ? error.code : 'ok'}`);
      resolveEnded(error);
    },
  };
  return { events, ended, handlers };
}

const pcm = (bytes: number) => new ArrayBuffer(bytes);

describe('speech socket client', () => {
  it('starts with the token, keeps audio until ready, streams, stops and reports results', async () => {
    const { url, received } = await speechServer(() => undefined);
    const { events, ended, handlers } = recorder();
    const client = openSpeechSocket({
      url,
      token: 'id-token',
      reportId: REPORT_ID,
      WebSocketImpl: WebSocket,
      ...handlers,
    });
    // Audio before the server is ready is kept, not lost.
    client.sendAudio(pcm(3200));
    client.sendAudio(pcm(3200));
    const start = ZSpeechClientMessage.parse(await received.next());
    expect(start).toEqual({
      type: 'start',
      token: 'id-token',
      report_id: REPORT_ID,
      sample_rate: 16000,
      encoding: 's16le',
    });
    expect(received.audioBytes).toBe(0);
    const [socket] = [...(servers[0]?.clients ?? [])];
    if (!socket) throw new Error('no connection');
    say(socket, { type: 'ready', provider: 'pocketsphinx' });
    expect(await received.next()).toEqual({ audio: 3200 });
    expect(await received.next()).toEqual({ audio: 3200 });
    client.sendAudio(pcm(3200));
    expect(await received.next()).toEqual({ audio: 3200 });
    say(socket, { type: 'partial', text: 'no focal' });
    say(socket, {
      type: 'final',
      text: 'no focal lesion full stop',
      segments: [{ kind: 'text', text: 'no focal lesion.' }],
    });
    client.stop();
    expect(await received.next()).toEqual({ type: 'stop' });
    // Audio after stop is not sent.
    client.sendAudio(pcm(3200));
    say(socket, { type: 'ended' });
    expect(await ended).toBeNull();
    expect(events).toEqual([
      'ready pocketsphinx',
      'partial no focal',
      'final no focal lesion full stop [{"kind":"text","text":"no focal lesion."}]',
      'ended ok',
    ]);
    expect(received.audioBytes).toBe(9600);
  });

  it('splits a frame larger than the server accepts', async () => {
    const { url, received } = await speechServer((socket) =>
      say(socket, { type: 'ready', provider: 'augnito' }),
    );
    const { handlers } = recorder();
    const client = openSpeechSocket({
      url,
      token: 't',
      reportId: REPORT_ID,
      WebSocketImpl: WebSocket,
      ...handlers,
    });
    await received.next();
    client.sendAudio(pcm(32000 + 100));
    expect(await received.next()).toEqual({ audio: 32000 });
    expect(await received.next()).toEqual({ audio: 100 });
    client.close();
  });

  it('a stop before ready sends the kept audio, then the stop', async () => {
    const { url, received } = await speechServer(() => undefined);
    const { ended, handlers } = recorder();
    const client = openSpeechSocket({
      url,
      token: 't',
      reportId: REPORT_ID,
      WebSocketImpl: WebSocket,
      ...handlers,
    });
    client.sendAudio(pcm(1600));
    client.stop();
    await received.next();
    const [socket] = [...(servers[0]?.clients ?? [])];
    if (!socket) throw new Error('no connection');
    say(socket, { type: 'ready', provider: 'pocketsphinx' });
    expect(await received.next()).toEqual({ audio: 1600 });
    expect(await received.next()).toEqual({ type: 'stop' });
    say(socket, { type: 'ended' });
    expect(await ended).toBeNull();
  });

  it('keeps the last 2 s of audio while the server gets ready, not a burst the engine must catch up on', async () => {
    const { url, received } = await speechServer(() => undefined);
    const { handlers } = recorder();
    const client = openSpeechSocket({
      url,
      token: 't',
      reportId: REPORT_ID,
      WebSocketImpl: WebSocket,
      ...handlers,
    });
    for (let frame = 0; frame < 30; frame += 1) client.sendAudio(pcm(3200));
    await received.next();
    const [socket] = [...(servers[0]?.clients ?? [])];
    if (!socket) throw new Error('no connection');
    say(socket, { type: 'ready', provider: 'pocketsphinx' });
    for (let frame = 0; frame < 20; frame += 1) expect(await received.next()).toEqual({ audio: 3200 });
    client.stop();
    expect(await received.next()).toEqual({ type: 'stop' });
    expect(received.audioBytes).toBe(2 * 16000 * 2);
    client.close();
  });

  it("reports the server's error with its code and message, once", async () => {
    const { url } = await speechServer((socket) => {
      socket.once('message', () => {
        say(socket, { type: 'error', code: 'FORBIDDEN', message: 'You may not edit this report.' });
        socket.close();
      });
    });
    const { events, ended, handlers } = recorder();
    openSpeechSocket({ url, token: 't', reportId: REPORT_ID, WebSocketImpl: WebSocket, ...handlers });
    expect(await ended).toEqual({ code: 'FORBIDDEN', message: 'You may not edit this report.' });
    expect(events).toEqual(['ended FORBIDDEN']);
  });

  it('a connection closed before the end is reported as lost; malformed messages are ignored', async () => {
    const { url } = await speechServer((socket) => {
      socket.once('message', () => {
        socket.send('not json');
        socket.send(JSON.stringify({ type: 'final', text: 1 }));
        socket.terminate();
      });
    });
    const { events, ended, handlers } = recorder();
    openSpeechSocket({ url, token: 't', reportId: REPORT_ID, WebSocketImpl: WebSocket, ...handlers });
    expect(await ended).toMatchObject({ code: 'CONNECTION_LOST' });
    expect(events).toEqual(['ended CONNECTION_LOST']);
  });

  it('connects on the page origin, wss on https', () => {
    expect(speechSocketUrl({ protocol: 'https:', host: 'ris.example' })).toBe(
      'wss://ris.example/api/v1/speech',
    );
    expect(speechSocketUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe(
      'ws://127.0.0.1:8080/api/v1/speech',
    );
  });
});
