// The client of the speech socket (WebSocket /api/v1/speech, same origin): 'start' with the ID
// token first, audio only after 'ready' (what the microphone gave meanwhile is kept and sent then),
// 'stop' at the end; partials, finals, the end and errors reported to the caller.
import {
  DICTATION_ENCODING,
  DICTATION_MAX_FRAME_BYTES,
  DICTATION_SAMPLE_RATE,
  ZSpeechServerMessage,
  type TDictationSegment,
  type TSpeechClientMessage,
  type TSpeechErrorCode,
  type TSpeechProvider,
} from '@ris/domain';

/**
 * Audio kept while the server gets ready (the first words said at once are not lost): 2 s at 16 kHz
 * s16le, the oldest dropped beyond it. More would reach the engine as one burst it must catch up on
 * while the person goes on speaking (a slow start then makes every result late).
 */
const MAX_PENDING_BYTES = DICTATION_SAMPLE_RATE * 2 * 2;

export interface TSpeechSocketHandlers {
  onReady?: (provider: TSpeechProvider) => void;
  onPartial?: (text: string) => void;
  onFinal?: (text: string, segments: TDictationSegment[]) => void;
  /** Called once, when the stream is over: after 'ended', an error, or the socket closing. */
  onEnded?: (error: { code: TSpeechErrorCode | 'CONNECTION_LOST'; message: string } | null) => void;
}

export interface TSpeechSocketOptions extends TSpeechSocketHandlers {
  url: string;
  token: string;
  reportId: string;
  /** Injected for tests in Node; the browser's WebSocket by default. */
  WebSocketImpl?: typeof WebSocket;
}

export interface TSpeechSocket {
  /** A frame of 16 kHz s16le mono PCM; kept until 'ready', dropped after 'stop'. */
  sendAudio(pcm: ArrayBuffer): void;
  /** End of speech: sends what is pending, then 'stop'; the server answers its last final and 'ended'. */
  stop(): void;
  /** Closes at once (leaving the screen): no more handlers are called. */
  close(): void;
}

/** The speech socket's address on the page's origin (wss on https). */
export function speechSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/speech`;
}

/** Splits a PCM buffer into frames the server accepts (at most DICTATION_MAX_FRAME_BYTES each). */
function framesOf(pcm: ArrayBuffer): ArrayBuffer[] {
  if (pcm.byteLength <= DICTATION_MAX_FRAME_BYTES) return [pcm];
  const frames: ArrayBuffer[] = [];
  for (let start = 0; start < pcm.byteLength; start += DICTATION_MAX_FRAME_BYTES) {
    frames.push(pcm.slice(start, Math.min(pcm.byteLength, start + DICTATION_MAX_FRAME_BYTES)));
  }
  return frames;
}

export function openSpeechSocket(options: TSpeechSocketOptions): TSpeechSocket {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const socket = new Impl(options.url);
  socket.binaryType = 'arraybuffer';
  let ready = false;
  let stopRequested = false;
  let stopSent = false;
  let finished = false;
  let pending: ArrayBuffer[] = [];
  let pendingBytes = 0;

  const finish = (error: { code: TSpeechErrorCode | 'CONNECTION_LOST'; message: string } | null): void => {
    if (finished) return;
    finished = true;
    pending = [];
    options.onEnded?.(error);
    if (socket.readyState === Impl.OPEN || socket.readyState === Impl.CONNECTING) socket.close(1000);
  };
  const send = (message: TSpeechClientMessage): void => socket.send(JSON.stringify(message));
  const sendStop = (): void => {
    if (stopSent) return;
    stopSent = true;
    send({ type: 'stop' });
  };

  socket.addEventListener('open', () => {
    send({
      type: 'start',
      token: options.token,
      report_id: options.reportId,
      sample_rate: DICTATION_SAMPLE_RATE,
      encoding: DICTATION_ENCODING,
    });
  });
  socket.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (finished || typeof event.data !== 'string') return;
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    const parsed = ZSpeechServerMessage.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    switch (message.type) {
      case 'ready':
        ready = true;
        options.onReady?.(message.provider);
        for (const frame of pending.splice(0)) socket.send(frame);
        pendingBytes = 0;
        if (stopRequested) sendStop();
        break;
      case 'partial':
        options.onPartial?.(message.text);
        break;
      case 'final':
        options.onFinal?.(message.text, message.segments);
        break;
      case 'ended':
        finish(null);
        break;
      case 'error':
        finish({ code: message.code, message: message.message });
        break;
    }
  });
  socket.addEventListener('close', () => {
    finish(
      stopSent
        ? null
        : { code: 'CONNECTION_LOST', message: 'The connection to the speech service was lost.' },
    );
  });

  return {
    sendAudio(pcm) {
      if (finished || stopRequested || pcm.byteLength === 0) return;
      for (const frame of framesOf(pcm)) {
        if (ready && socket.readyState === Impl.OPEN) {
          socket.send(frame);
          continue;
        }
        pending.push(frame);
        pendingBytes += frame.byteLength;
        while (pendingBytes > MAX_PENDING_BYTES && pending.length > 0) {
          pendingBytes -= pending.shift()?.byteLength ?? 0;
        }
      }
    },
    stop() {
      if (finished || stopRequested) return;
      stopRequested = true;
      if (ready && socket.readyState === Impl.OPEN) sendStop();
      // Before 'ready' the stop is sent once the server is ready (with the audio kept meanwhile).
    },
    close() {
      if (finished) return;
      finished = true;
      pending = [];
      socket.close(1000);
    },
  };
}
