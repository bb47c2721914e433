import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR_CODE, errorMessage, validationFieldErrors } from './api-error.ts';
import { apiRelativePath, createHttpClient, type FetchLike } from './http.ts';
import { SESSION_ENDING_CODES } from './session-errors.ts';

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that records its calls and answers with the given response (or throws the given error). */
function fakeFetch(answer: () => Response | Promise<Response>): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      return answer();
    },
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('createHttpClient', () => {
  it('prefixes the base path, adds the query string and the bearer token', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { items: [] }));
    const client = createHttpClient({ fetch, getToken: () => 'token-1' });
    const data = await client.get('/worklist', {
      query: { statuses: ['ORDERED', 'FINAL'], search: undefined },
    });

    expect(data).toEqual({ items: [] });
    expect(calls[0]?.url).toBe('/api/v1/worklist?statuses=ORDERED&statuses=FINAL');
    const headers = new Headers(calls[0]?.init.headers);
    expect(headers.get('Authorization')).toBe('Bearer token-1');
    expect(calls[0]?.init.method).toBe('GET');
  });

  it('sends no Authorization header without a token', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, {}));
    await createHttpClient({ fetch, getToken: () => null }).get('/user/1');
    expect(new Headers(calls[0]?.init.headers).has('Authorization')).toBe(false);
  });

  it('sends plain bodies as JSON', async () => {
    const { fetch, calls } = fakeFetch(() => json(201, { id: 'm1' }));
    await createHttpClient({ fetch }).post('/radiologist/macro', { short_key: 'n', value: 'Normal' });
    expect(calls[0]?.init.body).toBe('{"short_key":"n","value":"Normal"}');
    expect(new Headers(calls[0]?.init.headers).get('Content-Type')).toBe('application/json');
  });

  it('sends FormData as multipart without setting a content type', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204 }));
    const form = new FormData();
    form.append('message', 'Help');
    const result = await createHttpClient({ fetch }).post('/comm/email/send-support', form);
    expect(result).toBeUndefined();
    expect(calls[0]?.init.body).toBe(form);
    expect(new Headers(calls[0]?.init.headers).has('Content-Type')).toBe(false);
  });

  it('validates the response with the given parser', async () => {
    const { fetch } = fakeFetch(() => json(200, { total: 3 }));
    const total = await createHttpClient({ fetch }).get('/worklist/status/count', {
      parse: (data) => (data as { total: number }).total,
    });
    expect(total).toBe(3);
  });

  it('returns blob responses', async () => {
    const { fetch } = fakeFetch(
      () => new Response(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), { status: 200 }),
    );
    const blob = await createHttpClient({ fetch }).blob('POST', '/worklist/report/preview/pdf');
    expect(await blob.text()).toBe('%PDF-1.7');
  });
});

describe('errors', () => {
  it('carries status, code, message and details of the server error body', async () => {
    const { fetch } = fakeFetch(() =>
      json(422, { error: { code: 'VALIDATION', message: 'Email is invalid', details: { field: 'email' } } }),
    );
    const error = await rejection(createHttpClient({ fetch }).post('/auth/sign-up', {}));
    expect(error.status).toBe(422);
    expect(error.code).toBe('VALIDATION');
    expect(error.serverMessage).toBe('Email is invalid');
    expect(error.message).toBe('Email is invalid');
    expect(error.details).toEqual({ field: 'email' });
  });

  it('keeps the status but no code or message for a non-JSON body', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await rejection(createHttpClient({ fetch }).get('/worklist'));
    expect(error.status).toBe(502);
    expect(error.code).toBeUndefined();
    expect(error.serverMessage).toBeUndefined();
    expect(errorMessage(error, 'Failed to fetch worklist')).toBe('Failed to fetch worklist');
  });

  it('ignores JSON bodies of another shape', async () => {
    const { fetch } = fakeFetch(() => json(404, { message: 'Route GET:/x not found', statusCode: 404 }));
    const error = await rejection(createHttpClient({ fetch }).get('/x'));
    expect(error.status).toBe(404);
    expect(error.serverMessage).toBeUndefined();
  });

  it('turns a network failure into status 0 with the network code', async () => {
    const { fetch } = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await rejection(createHttpClient({ fetch }).get('/worklist'));
    expect(error.status).toBe(0);
    expect(error.code).toBe(NETWORK_ERROR_CODE);
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(errorMessage(error, 'Failed to fetch worklist')).toBe('Failed to fetch worklist');
  });

  it('lets an aborted request reject with the abort itself', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    const { fetch } = fakeFetch(() => Promise.reject(abort));
    await expect(createHttpClient({ fetch }).get('/worklist')).rejects.toBe(abort);
  });
});

describe('errorMessage', () => {
  it('prefers the server message and falls back otherwise', () => {
    expect(errorMessage(new ApiError({ status: 400, serverMessage: 'Bad input' }), 'Failed')).toBe(
      'Bad input',
    );
    expect(errorMessage(new ApiError({ status: 500 }), 'Failed to fetch user')).toBe('Failed to fetch user');
    expect(errorMessage(new Error('boom'), 'Failed to fetch user')).toBe('Failed to fetch user');
    expect(errorMessage(undefined, 'Failed to fetch user')).toBe('Failed to fetch user');
  });
});

describe('session hooks', () => {
  function sessionClient(answers: (() => Response)[], renewed: string | null = 'token-2') {
    let token = 'token-1';
    const ended: (string | undefined)[] = [];
    const renewals: string[] = [];
    const { fetch, calls } = fakeFetch(() => {
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next();
    });
    const client = createHttpClient({
      fetch,
      getToken: () => token,
      session: {
        renewToken: async (rejected) => {
          renewals.push(rejected);
          if (renewed) token = renewed;
          return renewed;
        },
        onSessionEnded: (error) => void ended.push(error.code),
      },
    });
    return { client, calls, ended, renewals };
  }
  const expired = () => json(401, { error: { code: 'auth/id-token-expired', message: 'Token expired' } });

  it('renews an expired token once and retries the call with the new one', async () => {
    const { client, calls, ended, renewals } = sessionClient([expired, () => json(200, { ok: true })]);
    expect(await client.post('/worklist/report', { a: 1 })).toEqual({ ok: true });
    expect(renewals).toEqual(['token-1']);
    expect(calls.map((c) => new Headers(c.init.headers).get('Authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ]);
    expect(calls[1]?.init.body).toBe('{"a":1}');
    expect(ended).toEqual([]);
  });

  it('ends the session when the token is still expired after renewal, or cannot be renewed', async () => {
    const again = sessionClient([expired, expired]);
    expect((await rejection(again.client.get('/worklist'))).code).toBe('auth/id-token-expired');
    expect(again.ended).toEqual(['auth/id-token-expired']);

    const none = sessionClient([expired], null);
    expect((await rejection(none.client.get('/worklist'))).status).toBe(401);
    expect(none.calls).toHaveLength(1);
    expect(none.ended).toEqual(['auth/id-token-expired']);
  });

  it('ends the session at once on a disabled user or a revoked token', async () => {
    for (const code of ['auth/user-disabled', 'auth/id-token-revoked']) {
      const { client, ended, renewals } = sessionClient([() => json(401, { error: { code, message: 'x' } })]);
      await rejection(client.get('/worklist'));
      expect(ended).toEqual([code]);
      expect(renewals).toEqual([]);
    }
  });

  it('leaves calls without the session alone (sign-in failures are login errors)', async () => {
    const { client, ended, renewals, calls } = sessionClient([
      () => json(401, { error: { code: 'auth/user-disabled', message: 'x' } }),
    ]);
    await rejection(client.post('/auth/sign-in', {}, { auth: 'none' }));
    expect(new Headers(calls[0]?.init.headers).has('Authorization')).toBe(false);
    expect(ended).toEqual([]);
    expect(renewals).toEqual([]);
  });
});

describe('validationFieldErrors', () => {
  it('maps details.fields to field names, first message first', () => {
    const error = new ApiError({
      status: 400,
      code: 'VALIDATION_FAILED',
      details: {
        fields: [
          { field: 'body.email', message: 'Enter a valid e-mail address' },
          { field: 'email', message: 'second' },
          { field: 'password', message: 'Too short' },
          { nonsense: true },
        ],
      },
    });
    expect(validationFieldErrors(error)).toEqual({
      email: 'Enter a valid e-mail address',
      password: 'Too short',
    });
    expect(
      validationFieldErrors(new ApiError({ status: 400, code: 'OTHER', details: error.details })),
    ).toEqual({});
    expect(validationFieldErrors(new Error('x'))).toEqual({});
  });
});

describe('session-ending codes', () => {
  it('end at once on a disabled user, a revoked token or a dead refresh token; an expired token is renewed first', () => {
    expect(SESSION_ENDING_CODES).toEqual([
      'auth/user-disabled',
      'auth/id-token-revoked',
      'auth/invalid-refresh-token',
    ]);
  });
});

describe('apiRelativePath', () => {
  it('turns an absolute API path into one under the client base, and refuses anything else', () => {
    expect(apiRelativePath('/api/v1/worklist/report/r1/images/i1')).toBe('/worklist/report/r1/images/i1');
    expect(apiRelativePath('/api/v10/x')).toBeNull();
    expect(apiRelativePath('https://elsewhere.test/api/v1/x')).toBeNull();
  });
});
