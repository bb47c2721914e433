// Augnito's streaming speech protocol (issue 17), as its own clients speak it: the browser
// recorder `augnitorecorder` on npm (lib/executor.js: the "PING" keep-alive, {Type:"meta"} events
// with Event.Type "INVALID_AUTH_CREDENTIALS", {Result:{Final,Transcript,…}} results, {Type:"ACK",
// Data:"RECEIVED_EOS"}, {Type:"ERROR",Data}, the text "EOS" after the audio) and the Flutter SDK
// `augnito_flutter_sdk` on pub.dev (SDKConfig: wss://<domain>/v2/speechapi; AugnitoConfig:
// accountcode, accesskey, lmid, usertag, sourceapp, logintoken, noisect, content-type). The
// content-type is GStreamer caps, as in kaldi-gstreamer-server, which Augnito's protocol follows.
// The adapter (augnito-provider.ts) and the test engine (test/fake-augnito-server.ts) share this file.
import type { TDictationCommand } from '@ris/domain';

/** Augnito's own engine address. */
export const AUGNITO_DEFAULT_SERVER_URL = 'wss://api.augnito.ai/v2/speechapi';

/** 16 kHz s16le mono PCM as GStreamer caps, with '+' for the spaces, as Augnito's clients send it. */
export const AUGNITO_CONTENT_TYPE =
  'audio/x-raw,+layout=(string)interleaved,+rate=(int)16000,+format=(string)S16LE,+channels=(int)1';

/** The text frame that ends the audio. */
export const AUGNITO_EOS = 'EOS';
/** The server's keep-alive text frame. */
export const AUGNITO_PING = 'PING';
/** The meta event that refuses the account code or access key. */
export const AUGNITO_INVALID_CREDENTIALS = 'INVALID_AUTH_CREDENTIALS';
/** The ACK's Data once the server has the EOS. */
export const AUGNITO_RECEIVED_EOS = 'RECEIVED_EOS';
/** An ERROR's Data when the server gave up waiting. */
export const AUGNITO_TIMEOUT_EXCEEDED = 'Timeout exceeded';

export type TAugnitoQuery = {
  accountCode: string;
  accessKey: string;
  lmId: string;
  userTag: string;
  sourceApp: string;
  noiseCut: boolean;
  loginToken?: string;
};

/**
 * The stream's address. It holds the access key: never log it. The content-type goes as Augnito's
 * clients write it (its '+' are spaces); the other values are percent-encoded.
 */
export function augnitoStreamUrl(serverUrl: string, query: TAugnitoQuery): string {
  const params: [string, string][] = [
    ['accountcode', query.accountCode],
    ['accesskey', query.accessKey],
    ['lmid', query.lmId],
    ['usertag', query.userTag],
    ['sourceapp', query.sourceApp],
    ['noisect', query.noiseCut ? '1' : '0'],
  ];
  if (query.loginToken) params.push(['logintoken', query.loginToken]);
  const encoded = params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  const separator = serverUrl.includes('?') ? '&' : '?';
  return `${serverUrl}${separator}content-type=${AUGNITO_CONTENT_TYPE}&${encoded}`;
}

/** A server message, read defensively: Augnito adds fields over time. */
export type TAugnitoMessage =
  | { kind: 'ping' }
  | { kind: 'meta'; eventType: string | null; jobId: string | null }
  | { kind: 'partial'; transcript: string }
  | { kind: 'final'; transcript: string; isCommand: boolean; action: string }
  | { kind: 'ack'; receivedEos: boolean }
  | { kind: 'error'; data: string }
  | { kind: 'other' };

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function readAugnitoMessage(raw: string): TAugnitoMessage {
  if (raw === AUGNITO_PING) return { kind: 'ping' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { kind: 'other' };
  }
  const message = record(parsed);
  if (!message) return { kind: 'other' };
  const result = record(message.Result);
  if (result) {
    const transcript = text(result.Transcript);
    if (result.Final !== true) return { kind: 'partial', transcript };
    return { kind: 'final', transcript, isCommand: result.IsCommand === true, action: text(result.Action) };
  }
  if (message.Type === 'meta') {
    const event = record(message.Event);
    return {
      kind: 'meta',
      eventType: typeof event?.Type === 'string' ? event.Type : null,
      jobId: typeof message.JobID === 'string' ? message.JobID : null,
    };
  }
  if (message.Type === 'ACK') {
    return { kind: 'ack', receivedEos: text(message.Data).toUpperCase() === AUGNITO_RECEIVED_EOS };
  }
  if (message.Type === 'ERROR') return { kind: 'error', data: text(message.Data) };
  return { kind: 'other' };
}

/**
 * Augnito's command actions (lower case, no spaces, as its SDKs name them: "stopmic", "delete")
 * and the voice commands they are here. Actions not listed are ignored.
 */
const AUGNITO_ACTIONS: Record<string, TDictationCommand> = {
  newline: 'new-line',
  nextline: 'new-line',
  newparagraph: 'new-paragraph',
  nextparagraph: 'new-paragraph',
  delete: 'delete-that',
  deletethat: 'delete-that',
  scratchthat: 'delete-that',
  undo: 'undo',
  undothat: 'undo',
  nextfield: 'next-field',
  gotoimpression: 'go-to-impression',
  stopmic: 'stop-dictation',
  stopdictation: 'stop-dictation',
  stoplistening: 'stop-dictation',
};

export function augnitoActionCommand(action: string): TDictationCommand | null {
  return AUGNITO_ACTIONS[action.toLowerCase().replace(/[^a-z]/g, '')] ?? null;
}
