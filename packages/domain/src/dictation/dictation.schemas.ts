// Dictation (issue 17): the browser streams microphone audio to the RIS, which talks to the speech
// engine chosen by the organisation; no engine key ever reaches the browser. This file is the
// contract between the web client, the speech socket, the engines and the recorded-dictation API.
import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';

/**
 * The engines an organisation can choose. 'pocketsphinx': offline, on the RIS's own server (Debian's
 * CMU PocketSphinx, language model built from the organisation's templates, macros and reports).
 * 'augnito': the cloud engine of the specification, reached by the server with keys it holds.
 * 'browser': the browser's own Web Speech API, only when an admin allows it (audio goes to the
 * browser's vendor). 'off': no dictation.
 */
export const SPEECH_PROVIDERS = ['pocketsphinx', 'augnito', 'browser', 'off'] as const;
export type TSpeechProvider = (typeof SPEECH_PROVIDERS)[number];
export const ZSpeechProvider = z.enum(SPEECH_PROVIDERS);

/** The audio every engine receives (§7): 16 kHz, 16-bit signed little-endian, mono. */
export const DICTATION_SAMPLE_RATE = 16_000;
export const DICTATION_ENCODING = 's16le';
/** A streamed dictation ends (with an error message) after this long. */
export const DICTATION_MAX_STREAM_SECONDS = 15 * 60;
/** Largest binary frame accepted on the speech socket (1 s of audio); bigger closes the stream. */
export const DICTATION_MAX_FRAME_BYTES = DICTATION_SAMPLE_RATE * 2;
/** Recorded dictations (POST /worklist/augnito/voice-data): size and duration limits. */
export const RECORDING_MAX_BYTES = 50 * 1024 * 1024;
export const RECORDING_MAX_SECONDS = 20 * 60;
/** Recordings are deleted this many days after upload unless the organisation says otherwise. */
export const RECORDING_RETENTION_DAYS_DEFAULT = 90;

/**
 * What a recognised utterance means: text to insert at the caret, or a voice command.
 * Punctuation words ("full stop", "period", "comma", "colon") are folded into text; numbers and
 * measurements are digits with units ("three point two centimetres" → "3.2 cm").
 */
export const DICTATION_COMMANDS = [
  'new-line',
  'new-paragraph',
  'delete-that',
  'undo',
  'next-field',
  'go-to-impression',
  'insert-template',
  'insert-macro',
  'stop-dictation',
] as const;
export type TDictationCommand = (typeof DICTATION_COMMANDS)[number];
export const ZDictationCommand = z.enum(DICTATION_COMMANDS);

export const ZDictationSegment = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({
    kind: z.literal('command'),
    command: ZDictationCommand,
    /** insert-template: the template's name as spoken; insert-macro: the macro's short key. */
    argument: z.string().optional(),
  }),
]);
export type TDictationSegment = z.infer<typeof ZDictationSegment>;

// ---- The speech socket: WebSocket at /api/v1/speech (same origin) ----------------------------

/**
 * Client → server, first message (text): who is speaking and into which report. The ID token goes
 * here, never in the URL (URLs are logged). The server checks the token, that the user may edit the
 * report, and the organisation's engine, before it accepts any audio; then it answers 'ready'.
 * After 'ready' the client sends binary frames of s16le PCM at 16 kHz, then {type:'stop'}.
 */
export const ZSpeechClientMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    token: z.string().min(1),
    report_id: ZUuid,
    sample_rate: z.literal(DICTATION_SAMPLE_RATE),
    encoding: z.literal(DICTATION_ENCODING),
  }),
  /** End of speech: the server flushes the engine, sends the last 'final' and then 'ended'. */
  z.object({ type: z.literal('stop') }),
]);
export type TSpeechClientMessage = z.infer<typeof ZSpeechClientMessage>;

export const SPEECH_ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'BAD_AUDIO',
  'BAD_MESSAGE',
  'DICTATION_OFF',
  'ENGINE_UNAVAILABLE',
  'ENGINE_REFUSED_CREDENTIALS',
  'ENGINE_TIMEOUT',
  'TOO_LONG',
  /** Too many dictations at once (per user or on the server); stop another one first. */
  'BUSY',
] as const;
export type TSpeechErrorCode = (typeof SPEECH_ERROR_CODES)[number];

/** Server → client (text frames, JSON). */
export const ZSpeechServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), provider: ZSpeechProvider }),
  /** The engine's current guess for the words since the last final (replaces the previous one). */
  z.object({ type: z.literal('partial'), text: z.string() }),
  /** Settled words: the raw transcript and what it means. */
  z.object({ type: z.literal('final'), text: z.string(), segments: z.array(ZDictationSegment) }),
  /** The stream is over (after 'stop', a 'stop-dictation' command, or an error); the socket closes. */
  z.object({ type: z.literal('ended') }),
  /** Why the stream failed; the socket closes after it. Nothing already inserted is lost. */
  z.object({ type: z.literal('error'), code: z.enum(SPEECH_ERROR_CODES), message: z.string() }),
]);
export type TSpeechServerMessage = z.infer<typeof ZSpeechServerMessage>;

// ---- Organisation settings: GET|PUT /organisation/speech-settings (admins) --------------------

export const ZSpeechSettings = z.object({
  provider: ZSpeechProvider,
  /** Whether the offline engine is installed on this server (read only). */
  pocketsphinx_available: z.boolean(),
  /** When the organisation's language model was last built, and how many words it knows. */
  language_model: z
    .object({ built_at: z.string(), words: z.number().int(), sentences: z.number().int() })
    .nullable(),
  augnito: z.object({
    /** Engine address (wss://); the default is Augnito's own. */
    server_url: z.string(),
    account_code: z.string(),
    lm_id: z.string(),
    /** Whether an access key is stored (it is never sent back). */
    has_access_key: z.boolean(),
  }),
  /** Whether users may choose the browser's own speech recognition (audio to the browser vendor). */
  browser_speech_allowed: z.boolean(),
  /** Recorded dictations are deleted this many days after upload. */
  recording_retention_days: z.number().int().min(1).max(3650),
});
export type TSpeechSettings = z.infer<typeof ZSpeechSettings>;

export const ZSpeechSettingsUpdate = z.object({
  provider: ZSpeechProvider.optional(),
  augnito: z
    .object({
      server_url: z.string().trim().url().max(500).optional(),
      account_code: z.string().trim().max(200).optional(),
      lm_id: z.string().trim().max(200).optional(),
      /** Omitted keeps the stored key, '' clears it, any other text replaces it. */
      access_key: z.string().max(500).optional(),
    })
    .optional(),
  browser_speech_allowed: z.boolean().optional(),
  recording_retention_days: z.number().int().min(1).max(3650).optional(),
});
export type TSpeechSettingsUpdate = z.infer<typeof ZSpeechSettingsUpdate>;

// ---- Recorded dictations: POST /worklist/augnito/voice-data (§7, multipart) ----------------

export const RECORDING_STATUSES = ['PENDING', 'TRANSCRIBED', 'FAILED'] as const;
export type TRecordingStatus = (typeof RECORDING_STATUSES)[number];

/**
 * Multipart fields beside the audio file (field `file`; WAV, WebM or Ogg, checked by content):
 * worklist_id or report_id (one is required), by_user_id (when given, must be the caller: a
 * dictation is recorded by the person who speaks it).
 */
export const ZVoiceDataFields = z
  .object({
    worklist_id: ZUuid.optional(),
    report_id: ZUuid.optional(),
    by_user_id: ZUuid.optional(),
  })
  .refine((fields) => fields.worklist_id !== undefined || fields.report_id !== undefined, {
    message: 'worklist_id or report_id is required',
    path: ['report_id'],
  });

/** A recorded dictation as the report's editors see it (GET /worklist/augnito/voice-data?report_id=). */
export const ZRecording = z.object({
  id: ZUuid,
  report_id: ZUuid,
  by_user_id: ZUuid,
  by_user_name: z.string(),
  status: z.enum(RECORDING_STATUSES),
  duration_seconds: z.number(),
  content_type: z.string(),
  /** The transcript once TRANSCRIBED (plain text; its segments applied), else null. */
  transcript: z.string().nullable(),
  error: z.string().nullable(),
  /** Whether the transcript has been inserted into the report. */
  inserted: z.boolean(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type TRecording = z.infer<typeof ZRecording>;

/**
 * GET /speech/options (any signed-in user): what the reporting screen offers. 'browser' is only
 * offered when browser_speech_allowed; the engine's keys and URLs are never here.
 */
export const ZSpeechOptions = z.object({
  provider: ZSpeechProvider,
  browser_speech_allowed: z.boolean(),
});
export type TSpeechOptions = z.infer<typeof ZSpeechOptions>;
