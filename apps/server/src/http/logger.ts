import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's (or proxy's) x-request-id when it is well-formed, else makes one. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

type TLoggedRequest = { method: string; url: string; host?: string; ip?: string };

/**
 * What a request line records: the path and the NAMES of its query parameters, never their values —
 * they carry one-time tokens (reset and e-mail links land on `/forgot-password?token=…`) and patient
 * details (worklist `search`).
 */
export function logRequest(request: TLoggedRequest): Record<string, unknown> {
  const [path = '/', query] = request.url.split('?', 2);
  const queryKeys = query ? [...new Set(new URLSearchParams(query).keys())] : [];
  return {
    method: request.method,
    url: path,
    ...(queryKeys.length > 0 ? { query_keys: queryKeys } : {}),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/** pino options: JSON in production, pretty in an interactive terminal; secrets never logged. */
export function loggerOptions(config: {
  logLevel: string;
  logPretty: boolean;
}): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    serializers: { req: logRequest },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.refresh_token',
        '*.id_token',
      ],
      censor: '[redacted]',
    },
    ...(config.logPretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}
