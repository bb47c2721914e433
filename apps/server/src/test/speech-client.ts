// A speech-socket client for tests (features/dictation): a real WebSocket to the test server's
// /api/v1/speech, its messages read in order.
import { ZSpeechServerMessage, type TSpeechServerMessage } from '@ris/domain';
import { WebSocket } from 'ws';

export type TSpeechClient = {
  /** The next server message (waits for it); rejects when the socket closed before one came. */
  next(): Promise<TSpeechServerMessage>;
  /** Messages until one of this type (included). */
  until(type: TSpeechServerMessage['type']): Promise<TSpeechServerMessage[]>;
  start(token: string, reportId: string): void;
  audio(bytes: Buffer): void;
  stop(): void;
  sendText(text: string): void;
  /** Resolves with the close code once the server has closed the socket. */
  closed: Promise<number>;
  close(): void;
};

/** Opens the speech socket of a server at `baseUrl` (http://127.0.0.1:port). */
export async function openSpeechSocket(baseUrl: string): Promise<TSpeechClient> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/v1/speech`);
  const queue: TSpeechServerMessage[] = [];
  const waiting: { resolve(message: TSpeechServerMessage): void; reject(error: Error): void }[] = [];
  let isClosed = false;
  const closed = new Promise<number>((resolve) => {
    socket.on('close', (code) => {
      isClosed = true;
      for (const waiter of waiting.splice(0)) waiter.reject(new Error(`socket closed (${code})`));
      resolve(code);
    });
  });
  socket.on('message', (data, isBinary) => {
    if (isBinary) throw new Error('the server sent a binary frame');
    const message = ZSpeechServerMessage.parse(JSON.parse(String(data)));
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message);
    else queue.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const client: TSpeechClient = {
    next() {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (isClosed) return Promise.reject(new Error('socket closed'));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    async until(type) {
      const seen: TSpeechServerMessage[] = [];
      for (;;) {
        const message = await client.next();
        seen.push(message);
        if (message.type === type) return seen;
      }
    },
    start(token, reportId) {
      socket.send(
        JSON.stringify({ type: 'start', token, report_id: reportId, sample_rate: 16_000, encoding: 's16le' }),
      );
    },
    audio(bytes) {
      socket.send(bytes, { binary: true });
    },
    stop() {
      socket.send(JSON.stringify({ type: 'stop' }));
    },
    sendText(text) {
      socket.send(text);
    },
    closed,
    close() {
      socket.close();
    },
  };
  return client;
}
