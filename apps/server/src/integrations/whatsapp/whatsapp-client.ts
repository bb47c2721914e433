// The WhatsApp Business Cloud API (Graph API) calls used to send a report PDF: upload the file as
// media, then send a document message that refers to it.
import type { TConfig } from '../../config.ts';

export type TWhatsappConfig = NonNullable<TConfig['whatsapp']>;

/** Graph API error codes that no retry can fix (invalid parameter, undeliverable, unsupported …). */
const PERMANENT_CODES = new Set([100, 131008, 131009, 131026, 131051, 131052, 132000, 133010]);
/**
 * Codes that mean "later": rate limits, temporary unavailability, and an expired or revoked access
 * token (190), which an operator fixes by setting a new WHATSAPP_ACCESS_TOKEN: the messages wait.
 */
const TRANSIENT_CODES = new Set([1, 2, 4, 17, 190, 341, 80007, 130429, 131000, 131016, 131048, 131056]);

const REQUEST_TIMEOUT_MS = 30_000;

/**
 * An error reply of the Graph API ({error: {message, type, code, error_subcode?, fbtrace_id}}), or a
 * failure to reach it. `permanent`: retrying the same request cannot succeed.
 */
export class WhatsappApiError extends Error {
  readonly status: number | null;
  readonly code: number | null;
  readonly permanent: boolean;

  constructor(message: string, details: { status: number | null; code: number | null; permanent: boolean }) {
    super(message);
    this.name = 'WhatsappApiError';
    this.status = details.status;
    this.code = details.code;
    this.permanent = details.permanent;
  }
}

type TGraphError = { message?: unknown; type?: unknown; code?: unknown; error_subcode?: unknown };

/** 429 and 5xx, and the transient codes, are worth retrying; other 4xx (and permanent codes) are not. */
export function isPermanentGraphError(status: number, code: number | null): boolean {
  if (code !== null && TRANSIENT_CODES.has(code)) return false;
  if (code !== null && PERMANENT_CODES.has(code)) return true;
  if (status === 401 || status === 429 || status >= 500) return false;
  return status >= 400;
}

async function graphError(response: Response, what: string): Promise<WhatsappApiError> {
  let error: TGraphError = {};
  try {
    const body = (await response.json()) as { error?: TGraphError };
    error = body.error ?? {};
  } catch {
    // Not JSON (a proxy's error page): the status decides.
  }
  const code = typeof error.code === 'number' ? error.code : null;
  const text = typeof error.message === 'string' && error.message ? error.message : response.statusText;
  const codeText = code === null ? `HTTP ${response.status}` : `code ${code}`;
  return new WhatsappApiError(`WhatsApp ${what} failed: ${text} (${codeText})`, {
    status: response.status,
    code,
    permanent: isPermanentGraphError(response.status, code),
  });
}

/** fetch with the bearer token and a timeout; network failures become transient errors. */
async function call(config: TWhatsappConfig, path: string, init: RequestInit, what: string) {
  const url = `${config.apiUrl}/${config.apiVersion}/${config.phoneNumberId}/${path}`;
  const signals = [AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...(init.signal ? [init.signal] : [])];
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${config.accessToken}` },
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
    throw new WhatsappApiError(`WhatsApp ${what} failed: ${reason || 'the API could not be reached'}`, {
      status: null,
      code: null,
      permanent: false,
    });
  }
  if (!response.ok) throw await graphError(response, what);
  return (await response.json()) as unknown;
}

/** The digits WhatsApp expects in `to`: an E.164 number without the "+". */
export function whatsappRecipient(e164: string): string {
  return e164.replace(/[^0-9]/g, '');
}

export class WhatsappClient {
  readonly #config: TWhatsappConfig;

  constructor(config: TWhatsappConfig) {
    this.#config = config;
  }

  /** POST /{phone-number-id}/media (multipart): the file becomes a media id to send. */
  async uploadMedia(
    file: { data: Buffer; filename: string; mediaType: string },
    signal?: AbortSignal,
  ): Promise<string> {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', file.mediaType);
    form.append('file', new Blob([new Uint8Array(file.data)], { type: file.mediaType }), file.filename);
    const body = await call(
      this.#config,
      'media',
      { method: 'POST', body: form, ...(signal ? { signal } : {}) },
      'media upload',
    );
    const id = (body as { id?: unknown }).id;
    if (typeof id !== 'string' || !id) {
      throw new WhatsappApiError('WhatsApp media upload failed: no media id in the answer', {
        status: 200,
        code: null,
        permanent: false,
      });
    }
    return id;
  }

  /** POST /{phone-number-id}/messages: a document message with an uploaded media id. Returns wamid. */
  async sendDocument(
    input: { to: string; mediaId: string; filename: string; caption: string },
    signal?: AbortSignal,
  ): Promise<string> {
    const body = await call(
      this.#config,
      'messages',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: whatsappRecipient(input.to),
          type: 'document',
          document: { id: input.mediaId, filename: input.filename, caption: input.caption },
        }),
        ...(signal ? { signal } : {}),
      },
      'message',
    );
    const id = (body as { messages?: { id?: unknown }[] }).messages?.[0]?.id;
    if (typeof id !== 'string' || !id) {
      // Accepted but unreadable: sending again could deliver twice, so this is not retried.
      throw new WhatsappApiError('WhatsApp message failed: no message id in the answer', {
        status: 200,
        code: null,
        permanent: true,
      });
    }
    return id;
  }
}
