// A local stand-in for Augnito's streaming speech engine on 127.0.0.1 (issue 17), speaking the
// protocol of integrations/speech/augnito/augnito-protocol.ts: it checks the query parameters,
// refuses a wrong account code or key with the INVALID_AUTH_CREDENTIALS meta event, sends PING,
// counts the PCM bytes, answers scripted utterances (partials while audio arrives, then a final;
// commands with IsCommand and Action) and the ACK after the EOS. Faults on demand: hang, ERROR.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  AUGNITO_CONTENT_TYPE,
  AUGNITO_EOS,
  AUGNITO_INVALID_CREDENTIALS,
  AUGNITO_PING,
  AUGNITO_RECEIVED_EOS,
} from '../integrations/speech/augnito/augnito-protocol.ts';

/** A scripted utterance: plain words, or a command with Augnito's action name. */
export type TFakeUtterance = string | { transcript: string; action: string };

export type TFakeAugnitoStream = {
  /** The query parameters as received (accesskey included: this is a test helper). */
  query: Record<string, string>;
  pcmBytes: number;
  frames: number;
  eos: boolean;
  /** Whether the engine refused the connection (credentials or parameters). */
  refused: boolean;
  closed: boolean;
};

export type TFakeAugnitoFault = 'hang' | 'error';

export type TFakeAugnito = {
  /** The engine's address: ws://127.0.0.1:<port>/v2/speechapi. */
  url: string;
  accessKey: string;
  accountCode: string;
  lmId: string;
  streams: TFakeAugnitoStream[];
  /** What the next stream hears, one entry per utterance (each later stream takes the next list). */
  nextTranscripts(list: TFakeUtterance[]): void;
  /** The next `times` streams hang (never answer, not even PING) or send ERROR on their first audio. */
  failNext(fault: TFakeAugnitoFault, times?: number): void;
  close(): Promise<void>;
};

export type TFakeAugnitoOptions = {
  accessKey: string;
  accountCode?: string;
  lmId?: string;
  /** Audio per utterance before its final (default 0.5 s of 16 kHz s16le); the rest comes at EOS. */
  bytesPerUtterance?: number;
  /** How often PING keeps the stream alive (default 100 ms, well inside any client time-out). */
  pingIntervalMs?: number;
};

const EXPECTED_CONTENT_TYPE = AUGNITO_CONTENT_TYPE.replaceAll('+', ' ');
const REQUIRED = ['content-type', 'accountcode', 'accesskey', 'lmid', 'usertag', 'sourceapp'];

const send = (socket: WebSocket, message: unknown) => {
  if (socket.readyState === socket.OPEN)
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
};

function result(utterance: TFakeUtterance, words: number | null) {
  const transcript = typeof utterance === 'string' ? utterance : utterance.transcript;
  if (words !== null) {
    const partial = transcript.split(' ').slice(0, words).join(' ');
    return { Result: { Final: false, Transcript: partial, IsCommand: false, Action: '' } };
  }
  const action = typeof utterance === 'string' ? '' : utterance.action;
  return { Result: { Final: true, Transcript: transcript, IsCommand: action !== '', Action: action } };
}

export async function startFakeAugnito(options: TFakeAugnitoOptions): Promise<TFakeAugnito> {
  const accountCode = options.accountCode ?? 'ris-test-account';
  const lmId = options.lmId ?? '201';
  const perUtterance = options.bytesPerUtterance ?? 16_000;
  const scripts: TFakeUtterance[][] = [];
  const faults: TFakeAugnitoFault[] = [];
  const streams: TFakeAugnitoStream[] = [];
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/v2/speechapi' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));

  server.on('connection', (socket, request) => {
    const params = new URL(request.url ?? '/', 'ws://127.0.0.1').searchParams;
    const stream: TFakeAugnitoStream = {
      query: Object.fromEntries(params),
      pcmBytes: 0,
      frames: 0,
      eos: false,
      refused: false,
      closed: false,
    };
    streams.push(stream);
    socket.on('close', () => {
      stream.closed = true;
    });
    const fault = faults.shift();
    if (fault === 'hang') {
      socket.on('message', (data, isBinary) => {
        if (isBinary) stream.pcmBytes += Buffer.byteLength(data as Buffer);
      });
      return;
    }
    const missing = REQUIRED.find((name) => !params.get(name));
    if (missing || params.get('content-type') !== EXPECTED_CONTENT_TYPE) {
      stream.refused = true;
      send(socket, { Type: 'ERROR', Data: `Bad parameter: ${missing ?? 'content-type'}` });
      socket.close(1000);
      return;
    }
    if (params.get('accesskey') !== options.accessKey || params.get('accountcode') !== accountCode) {
      stream.refused = true;
      send(socket, {
        Type: 'meta',
        Event: { Type: AUGNITO_INVALID_CREDENTIALS, Value: 'Invalid credentials' },
      });
      socket.close(1000);
      return;
    }
    send(socket, { Type: 'meta', JobID: randomUUID(), Event: { Type: 'SESSION_CREATED' } });
    send(socket, AUGNITO_PING);
    const keepAlive = setInterval(() => send(socket, AUGNITO_PING), options.pingIntervalMs ?? 100);
    socket.on('close', () => clearInterval(keepAlive));

    const script = fault === 'error' ? [] : (scripts.shift() ?? []);
    let heard = 0;
    const finalNext = () => {
      const utterance = script.shift();
      if (utterance !== undefined) send(socket, result(utterance, null));
      heard = 0;
    };
    socket.on('message', (data, isBinary) => {
      if (!isBinary) {
        if (data.toString() !== AUGNITO_EOS) return;
        stream.eos = true;
        while (script.length > 0) finalNext();
        send(socket, { Type: 'ACK', Data: AUGNITO_RECEIVED_EOS });
        socket.close(1000);
        return;
      }
      const bytes = Buffer.byteLength(data as Buffer);
      stream.pcmBytes += bytes;
      stream.frames += 1;
      if (fault === 'error') {
        send(socket, { Type: 'ERROR', Data: 'Internal server error' });
        socket.close(1011);
        return;
      }
      const utterance = script[0];
      if (utterance === undefined) return;
      heard += bytes;
      const words = (typeof utterance === 'string' ? utterance : utterance.transcript).split(' ').length;
      if (heard >= perUtterance) finalNext();
      else send(socket, result(utterance, Math.max(1, Math.ceil((words * heard) / perUtterance))));
    });
  });

  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/v2/speechapi`,
    accessKey: options.accessKey,
    accountCode,
    lmId,
    streams,
    nextTranscripts(list) {
      scripts.push([...list]);
    },
    failNext(fault, times = 1) {
      for (let i = 0; i < times; i += 1) faults.push(fault);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
