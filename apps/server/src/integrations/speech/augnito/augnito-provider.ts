// The Augnito cloud engine (issue 17), reached by the RIS server with the organisation's keys: the
// browser never sees them. One WebSocket per dictation speaking Augnito's streaming protocol
// (augnito-protocol.ts): binary PCM frames, the text "EOS", results back as JSON. Nothing here logs
// the stream's address (it holds the access key) nor any audio.
import WebSocket from 'ws';
import type { TDictationSegment } from '@ris/domain';
import {
  SpeechEngineError,
  type SpeechProvider,
  type SpeechStream,
  type SpeechStreamOptions,
} from '../speech-provider.ts';
import {
  AUGNITO_EOS,
  AUGNITO_INVALID_CREDENTIALS,
  AUGNITO_TIMEOUT_EXCEEDED,
  augnitoActionCommand,
  augnitoStreamUrl,
  readAugnitoMessage,
} from './augnito-protocol.ts';

export type AugnitoConfig = {
  serverUrl: string;
  accountCode: string;
  accessKey: string;
  lmId: string;
  sourceApp: string;
  noiseCut?: boolean;
  timeoutMs?: number;
};

/** Augnito's own clients give up after 10 s without a word from the server (SOCKET_TIMEOUT). */
const DEFAULT_TIMEOUT_MS = 10_000;
const CLOSE_NORMAL = 1000;

/**
 * A provider for one Augnito account. open() resolves once the engine has taken the connection;
 * it rejects with ENGINE_UNAVAILABLE when nothing answers at the address, ENGINE_REFUSED_CREDENTIALS
 * when the HTTP upgrade is refused with 401/403, ENGINE_TIMEOUT when the handshake takes longer than
 * timeoutMs. Afterwards, errors reach onError (once) and reject a pending end(): a refused key
 * (Augnito's meta event), an ERROR message, the connection lost, or no message at all (not even
 * PING) for timeoutMs.
 */
export function createAugnitoProvider(config: AugnitoConfig): SpeechProvider {
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    name: 'augnito',
    open(options) {
      const url = augnitoStreamUrl(config.serverUrl, {
        accountCode: config.accountCode,
        accessKey: config.accessKey,
        lmId: config.lmId,
        userTag: options.userId,
        sourceApp: config.sourceApp,
        noiseCut: config.noiseCut ?? true,
      });
      return openStream(url, timeoutMs, options);
    },
  };
}

type TState = 'opening' | 'open' | 'ending' | 'closed';

function openStream(url: string, timeoutMs: number, handlers: SpeechStreamOptions): Promise<SpeechStream> {
  return new Promise((resolveOpen, rejectOpen) => {
    let state: TState = 'opening';
    let ended: Promise<void> | null = null;
    let settleEnd: { resolve(): void; reject(error: SpeechEngineError): void } | null = null;
    let silence: NodeJS.Timeout | undefined;
    let endDeadline: NodeJS.Timeout | undefined;

    let socket: WebSocket;
    try {
      socket = new WebSocket(url, { perMessageDeflate: false });
    } catch {
      rejectOpen(new SpeechEngineError('ENGINE_UNAVAILABLE', 'The Augnito engine address is not valid'));
      return;
    }
    const handshake = setTimeout(
      () => fail(new SpeechEngineError('ENGINE_TIMEOUT', 'The Augnito engine did not answer in time')),
      timeoutMs,
    );

    const stopTimers = () => {
      clearTimeout(handshake);
      clearTimeout(silence);
      clearTimeout(endDeadline);
    };
    /** Every server message proves the engine alive; silence past timeoutMs is a time-out. */
    const heard = () => {
      clearTimeout(silence);
      if (state === 'open' || state === 'ending') {
        silence = setTimeout(
          () => fail(new SpeechEngineError('ENGINE_TIMEOUT', 'The Augnito engine stopped answering')),
          timeoutMs,
        );
      }
    };
    const close = () => {
      state = 'closed';
      stopTimers();
      socket.removeAllListeners('message');
      if (socket.readyState === WebSocket.OPEN) socket.close(CLOSE_NORMAL);
      else socket.terminate();
    };
    const fail = (error: SpeechEngineError) => {
      const was = state;
      if (was === 'closed') return;
      close();
      if (was === 'opening') {
        rejectOpen(error);
        return;
      }
      handlers.onError(error);
      settleEnd?.reject(error);
    };
    const finish = () => {
      if (state !== 'ending') return;
      close();
      settleEnd?.resolve();
    };

    const stream: SpeechStream = {
      write(pcm) {
        if (state !== 'open') return;
        if (pcm.length % 2 !== 0) throw new SpeechEngineError('BAD_AUDIO', 'Audio must be 16-bit samples');
        socket.send(pcm, { binary: true });
      },
      end() {
        if (ended) return ended;
        if (state !== 'open') return Promise.resolve();
        state = 'ending';
        ended = new Promise<void>((resolve, reject) => {
          settleEnd = { resolve, reject };
        });
        socket.send(AUGNITO_EOS);
        // PINGs go on after the EOS: the ACK (or the server closing) must come within timeoutMs.
        endDeadline = setTimeout(
          () => fail(new SpeechEngineError('ENGINE_TIMEOUT', 'The Augnito engine did not finish in time')),
          timeoutMs,
        );
        return ended;
      },
      abort() {
        if (state === 'closed') return;
        close();
      },
    };

    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      fail(
        status === 401 || status === 403
          ? new SpeechEngineError(
              'ENGINE_REFUSED_CREDENTIALS',
              'Augnito refused the account code or access key',
            )
          : new SpeechEngineError('ENGINE_UNAVAILABLE', `The Augnito engine answered HTTP ${status}`),
      );
    });
    socket.on('open', () => {
      if (state !== 'opening') return;
      state = 'open';
      clearTimeout(handshake);
      heard();
      resolveOpen(stream);
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary || (state !== 'open' && state !== 'ending')) return;
      heard();
      const message = readAugnitoMessage(rawText(data));
      switch (message.kind) {
        case 'meta':
          if (message.eventType === AUGNITO_INVALID_CREDENTIALS)
            fail(
              new SpeechEngineError(
                'ENGINE_REFUSED_CREDENTIALS',
                'Augnito refused the account code or access key',
              ),
            );
          return;
        case 'partial':
          if (message.transcript) handlers.onPartial(message.transcript);
          return;
        case 'final': {
          if (!message.isCommand) {
            if (message.transcript.trim()) handlers.onFinal(message.transcript, null);
            return;
          }
          const command = augnitoActionCommand(message.action);
          if (!command) return;
          const segments: TDictationSegment[] = [{ kind: 'command', command }];
          handlers.onFinal(message.transcript, segments);
          return;
        }
        case 'ack':
          if (message.receivedEos) finish();
          return;
        case 'error':
          fail(
            message.data === AUGNITO_TIMEOUT_EXCEEDED
              ? new SpeechEngineError('ENGINE_TIMEOUT', 'The Augnito engine timed out')
              : new SpeechEngineError('ENGINE_UNAVAILABLE', 'The Augnito engine reported an error'),
          );
          return;
        default:
          return;
      }
    });
    socket.on('error', () => {
      // Nothing listening, a name that does not resolve, TLS refused: the engine cannot be reached.
      fail(new SpeechEngineError('ENGINE_UNAVAILABLE', 'The Augnito engine cannot be reached'));
    });
    socket.on('close', () => {
      // Closing after the EOS is the end of the results; before it, the connection is lost.
      if (state === 'ending') finish();
      else fail(new SpeechEngineError('ENGINE_UNAVAILABLE', 'The Augnito engine closed the connection'));
    });
  });
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
