// Worker of realtime-bench.ts: the subscribed browsers. Runs in its own thread (its own event loop and
// core), so client-side decoding does not slow the server being measured. Imports only socket.io-client.
import { parentPort, workerData } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';

export type TClientsInput = { url: string; path: string; tokens: string[]; concurrency: number };
export type TClientsToMain =
  | { type: 'ready'; refused: number }
  | { type: 'event-done'; seq: number }
  | { type: 'receipts'; receipts: Record<number, number[]> };
export type TMainToClients = { type: 'report' } | { type: 'close' };

const input = workerData as TClientsInput;
const port = parentPort;
if (!port) throw new Error('realtime-bench-clients runs as a worker');

/** Absolute high-resolution time, comparable across threads of one process. */
const now = () => performance.timeOrigin + performance.now();
const receipts: Record<number, number[]> = {};
const sockets: Socket[] = [];
let refused = 0;

function onMessage(message: { type?: string; data?: { item?: { study?: string } } }): void {
  const at = now();
  const match = /^bench-(\d+)$/.exec(message.data?.item?.study ?? '');
  if (!match?.[1]) return;
  const seq = Number(match[1]);
  const list = (receipts[seq] ??= []);
  list.push(at);
  if (list.length === input.tokens.length)
    port?.postMessage({ type: 'event-done', seq } satisfies TClientsToMain);
}

async function connect(token: string): Promise<void> {
  const socket = io(input.url, {
    path: input.path,
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  socket.on('message', onMessage);
  const ack = (await socket.emitWithAck('listen_topic', { topic: 'worklist' })) as { ok: boolean };
  if (!ack.ok) throw new Error('worklist subscription refused');
  sockets.push(socket);
}

const queue = [...input.tokens];
await Promise.all(
  Array.from({ length: input.concurrency }, async () => {
    for (let token = queue.pop(); token !== undefined; token = queue.pop()) {
      await connect(token).catch(() => (refused += 1));
    }
  }),
);
port.postMessage({ type: 'ready', refused } satisfies TClientsToMain);
port.on('message', (message: TMainToClients) => {
  if (message.type === 'report') port.postMessage({ type: 'receipts', receipts } satisfies TClientsToMain);
  if (message.type === 'close') {
    for (const socket of sockets) socket.close();
    port.close();
  }
});
