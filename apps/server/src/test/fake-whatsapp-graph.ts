// A local stand-in for the WhatsApp Business Cloud API (Graph API) on 127.0.0.1: the two endpoints
// the RIS uses, with their real request and answer shapes, a bearer token check, a record of every
// call, and failures on demand.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TGraphCall =
  | {
      endpoint: 'media';
      phoneNumberId: string;
      fields: Record<string, string>;
      file: { filename: string; type: string; data: Buffer } | null;
      mediaId: string | null;
    }
  | { endpoint: 'messages'; phoneNumberId: string; body: unknown; messageId: string | null };

export type TGraphFailure = {
  status: number;
  /** The Graph API error object: {message, type, code, error_subcode?}. */
  error: { message: string; type: string; code: number; error_subcode?: number };
  /** Only calls to this endpoint fail (default: any). */
  endpoint?: 'media' | 'messages';
};

export type TFakeWhatsappGraph = {
  /** WHATSAPP_API_URL of the fake. */
  url: string;
  accessToken: string;
  phoneNumberId: string;
  apiVersion: string;
  /** The RIS environment that points at this fake. */
  env: Record<string, string>;
  calls: TGraphCall[];
  /** The next `times` matching calls answer this error. */
  failNext(times: number, failure: TGraphFailure): void;
  close(): Promise<void>;
};

const fbtrace = () => randomBytes(8).toString('base64url');

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function graphError(response: ServerResponse, status: number, error: TGraphFailure['error']): void {
  send(response, status, { error: { ...error, fbtrace_id: fbtrace() } });
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeWhatsappGraph(): Promise<TFakeWhatsappGraph> {
  const accessToken = `EAAG${randomBytes(12).toString('hex')}`;
  const phoneNumberId = '106540352242922';
  const apiVersion = 'v21.0';
  const calls: TGraphCall[] = [];
  const failures: { remaining: number; failure: TGraphFailure }[] = [];
  let counter = 0;

  const takeFailure = (endpoint: 'media' | 'messages') => {
    const entry = failures.find(
      (f) => f.remaining > 0 && (!f.failure.endpoint || f.failure.endpoint === endpoint),
    );
    if (!entry) return null;
    entry.remaining -= 1;
    return entry.failure;
  };

  const server = createServer((request, response) => {
    void (async () => {
      const match = /^\/(v[0-9]+\.[0-9]+)\/([0-9]+)\/(media|messages)$/.exec(request.url ?? '');
      if (request.method !== 'POST' || !match || match[1] !== apiVersion) {
        graphError(response, 400, { message: 'Unknown path components', type: 'OAuthException', code: 2500 });
        return;
      }
      const [, , phone = '', endpoint = 'media'] = match;
      if (request.headers.authorization !== `Bearer ${accessToken}`) {
        graphError(response, 401, {
          message: 'Invalid OAuth access token - Cannot parse access token',
          type: 'OAuthException',
          code: 190,
        });
        return;
      }
      if (phone !== phoneNumberId) {
        graphError(response, 400, {
          message: `Unsupported post request. Object with ID '${phone}' does not exist`,
          type: 'GraphMethodException',
          code: 100,
          error_subcode: 33,
        });
        return;
      }
      const raw = await readBody(request);
      const contentType = request.headers['content-type'] ?? '';
      if (endpoint === 'media') {
        const call: TGraphCall = {
          endpoint: 'media',
          phoneNumberId: phone,
          fields: {},
          file: null,
          mediaId: null,
        };
        calls.push(call);
        if (!contentType.startsWith('multipart/form-data')) {
          graphError(response, 400, {
            message: '(#100) Invalid parameter',
            type: 'OAuthException',
            code: 100,
          });
          return;
        }
        const form = await new Response(new Uint8Array(raw), {
          headers: { 'content-type': contentType },
        }).formData();
        for (const [key, value] of form.entries()) {
          if (typeof value === 'string') call.fields[key] = value;
          else
            call.file = {
              filename: value.name,
              type: value.type,
              data: Buffer.from(await value.arrayBuffer()),
            };
        }
        const failure = takeFailure('media');
        if (failure) return graphError(response, failure.status, failure.error);
        if (call.fields.messaging_product !== 'whatsapp' || !call.file || call.file.data.byteLength === 0) {
          graphError(response, 400, {
            message: '(#100) The parameter messaging_product is required.',
            type: 'OAuthException',
            code: 100,
          });
          return;
        }
        call.mediaId = String(1_000_000_000_000 + ++counter);
        send(response, 200, { id: call.mediaId });
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = null;
      }
      const call: TGraphCall = { endpoint: 'messages', phoneNumberId: phone, body, messageId: null };
      calls.push(call);
      const failure = takeFailure('messages');
      if (failure) return graphError(response, failure.status, failure.error);
      const message = body as { messaging_product?: unknown; to?: unknown } | null;
      if (message?.messaging_product !== 'whatsapp' || typeof message.to !== 'string') {
        graphError(response, 400, {
          message: '(#100) The parameter to is required.',
          type: 'OAuthException',
          code: 100,
        });
        return;
      }
      call.messageId = `wamid.HBgM${randomBytes(10).toString('hex').toUpperCase()}`;
      send(response, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: message.to, wa_id: message.to }],
        messages: [{ id: call.messageId }],
      });
    })().catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, { error: { message: String(error), code: 1 } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    accessToken,
    phoneNumberId,
    apiVersion,
    env: {
      WHATSAPP_API_URL: url,
      WHATSAPP_API_VERSION: apiVersion,
      WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: accessToken,
    },
    calls,
    failNext(times, failure) {
      failures.push({ remaining: times, failure });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
