// The speech socket (issue 17): a WebSocket at SPEECH_SOCKET_PATH on the app's own HTTP server,
// one dictation per connection (speech-session.ts). The ID token comes in the first message (never
// in the URL, which proxies log); the report policy decides before any audio is accepted.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { DICTATION_MAX_FRAME_BYTES, type TSpeechServerMessage } from '@ris/domain';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { accessChanged, currentPrincipal, principalNow } from '../../../access/user-changes.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import { AppError } from '../../../http/app-error.ts';
import { claimUpgradePath } from '../../../http/upgrade-paths.ts';
import { SpeechEngineError } from '../../../integrations/speech/speech-provider.ts';
import { reportGrantFor } from '../../reports/report-grant.ts';
import { SpeechRefusal, SpeechSession } from './speech-session.ts';

/** Where the browser connects: ws(s)://{host}/api/v1/speech. */
export const SPEECH_SOCKET_PATH = '/api/v1/speech';

/** A connection that has not sent 'start' within this time is closed. */
export const SPEECH_START_TIMEOUT_MS = 10_000;

/** Frames a little over the limit still reach the session (which answers BAD_AUDIO); far over, ws closes. */
const MAX_PAYLOAD_BYTES = DICTATION_MAX_FRAME_BYTES * 4;

const pathOf = (request: IncomingMessage) => (request.url ?? '').split('?')[0] ?? '';

/** Counts streams per user and on this server (SPEECH_STREAMS_PER_USER / _PER_SERVER). */
class StreamSlots {
  readonly #perUser = new Map<string, number>();
  #total = 0;
  readonly maxPerUser: number;
  readonly maxTotal: number;

  constructor(maxPerUser: number, maxTotal: number) {
    this.maxPerUser = maxPerUser;
    this.maxTotal = maxTotal;
  }

  /** Dictations streaming on this server now. */
  get open(): number {
    return this.#total;
  }

  reserve(userId: string): () => void {
    const mine = this.#perUser.get(userId) ?? 0;
    if (mine >= this.maxPerUser)
      throw new SpeechRefusal('BUSY', 'You are already dictating elsewhere; stop that dictation first.');
    if (this.#total >= this.maxTotal)
      throw new SpeechRefusal('BUSY', 'The server is dictating for too many people; try again shortly.');
    this.#perUser.set(userId, mine + 1);
    this.#total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total -= 1;
      const left = (this.#perUser.get(userId) ?? 1) - 1;
      if (left <= 0) this.#perUser.delete(userId);
      else this.#perUser.set(userId, left);
    };
  }
}

/**
 * Attaches the speech socket to the app's HTTP server; closed (streams dropped) with the app.
 * Answers how many dictations stream now (metrics).
 */
export function registerSpeechSocket(app: FastifyInstance): { openStreams(): number } {
  const { db } = app.deps.database;
  const { verifier, context } = app.identity;
  const { speech } = app.deps.config;
  const log = app.log.child({ component: 'speech-socket' });
  const slots = new StreamSlots(speech.streamsPerUser, speech.streamsPerServer);
  const sessions = new Set<SpeechSession>();
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
  let closing = false;

  async function authenticate(token: string): Promise<TPrincipal> {
    try {
      const verified = await verifier.verify(token);
      const principal = currentPrincipal(await context.cache.load(verified.userId), verified);
      if (principal) return principal;
    } catch (error) {
      if (!(error instanceof AppError && error.status < 500)) throw error;
    }
    throw new SpeechRefusal('UNAUTHENTICATED', 'Your sign-in has expired; sign in again to dictate.');
  }

  async function admit(principal: TPrincipal, reportId: string) {
    const grant = await reportGrantFor(db, principal, reportId);
    if (grant.access === 'none') throw new SpeechRefusal('NOT_FOUND', 'Report not found.');
    if (grant.access !== 'edit')
      throw new SpeechRefusal('FORBIDDEN', 'You may read this report but not dictate into it.');
    const { settings, provider } = await app.dictation.engines.engineFor(db, grant.organisationId);
    if (!provider) {
      throw new SpeechRefusal(
        'DICTATION_OFF',
        settings.provider === 'browser'
          ? "This organisation dictates with the browser's own speech recognition."
          : 'Dictation is turned off for this organisation.',
      );
    }
    return { provider, name: settings.provider };
  }

  async function stillAllowed(before: TPrincipal, reportId: string): Promise<boolean> {
    const now = await principalNow(context.cache, before);
    if (!now || accessChanged(before, now)) return false;
    return (await reportGrantFor(db, now, reportId)).access === 'edit';
  }

  function accept(websocket: WebSocket): void {
    // Every line about this connection carries its id.
    const connectionLog = log.child({ socketId: randomUUID() });
    const send = (message: TSpeechServerMessage) => {
      if (websocket.readyState === websocket.OPEN) websocket.send(JSON.stringify(message));
    };
    const session = new SpeechSession({
      send,
      close: (code) => websocket.close(code),
      authenticate,
      admit,
      stillAllowed,
      reserve: (userId) => slots.reserve(userId),
      maxStreamSeconds: speech.maxStreamSeconds,
      engineTimeoutMs: speech.engineTimeoutMs,
      idleMs: speech.idleSeconds * 1_000,
      logFailure: (error) =>
        connectionLog.error(
          { err: error instanceof SpeechEngineError ? error.code : error },
          'dictation stream failed',
        ),
    });
    sessions.add(session);
    const startTimer = setTimeout(() => {
      if (!session.started) {
        send({ type: 'error', code: 'BAD_MESSAGE', message: 'No start message came; connect again.' });
        websocket.close(1008);
      }
    }, SPEECH_START_TIMEOUT_MS);
    startTimer.unref();
    websocket.on('message', (data: RawData, isBinary: boolean) => {
      const buffer = Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.isBuffer(data)
          ? data
          : Buffer.from(data);
      if (isBinary) session.audio(buffer);
      else session.text(buffer.toString('utf8'));
    });
    websocket.on('close', () => {
      clearTimeout(startTimer);
      session.closed();
      sessions.delete(session);
    });
    websocket.on('error', (error) => connectionLog.warn({ err: error.message }, 'speech socket error'));
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = pathOf(request);
    if (pathname !== SPEECH_SOCKET_PATH && pathname !== `${SPEECH_SOCKET_PATH}/`) return;
    if (closing) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    server.handleUpgrade(request, socket, head, accept);
  };
  claimUpgradePath(app.server, SPEECH_SOCKET_PATH);
  app.server.on('upgrade', onUpgrade);

  app.addHook('preClose', async () => {
    closing = true;
    for (const session of sessions) session.shutdown();
  });
  app.addHook('onClose', async () => {
    app.server.off('upgrade', onUpgrade);
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { openStreams: () => slots.open };
}
