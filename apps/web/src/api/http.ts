import { apiErrorFromResponse, networkError, type ApiError } from './api-error.ts';
import { buildQueryString, type QueryParams } from './query-string.ts';
import { endsIdentitySession, isRenewableTokenError } from './session-errors.ts';

/** Every API path of the specification lives under this base, on the page's own origin. */
export const API_BASE_PATH = '/api/v1';

/** The path under the API client's base of an absolute API path (`/api/v1/...`), else null. */
export function apiRelativePath(src: string): string | null {
  if (!src.startsWith(`${API_BASE_PATH}/`)) return null;
  return src.slice(API_BASE_PATH.length);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpClientOptions {
  /** Defaults to API_BASE_PATH; tests pass an absolute URL. */
  baseUrl?: string;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: FetchLike;
  /** Current identity token, sent as `Authorization: Bearer …` when present. */
  getToken?: () => string | null | undefined;
  /** How calls made with the session's token recover from, or report, an auth failure. */
  session?: SessionHooks;
}

export interface SessionHooks {
  /**
   * Called once per call after a 401 saying the token expired: resolves the token to retry with,
   * or null when no fresh token could be had.
   */
  renewToken: (rejectedToken: string) => Promise<string | null>;
  /** Called when an authenticated call failed in a way that ends the identity session. */
  onSessionEnded: (error: ApiError) => void;
}

/**
 * `session` (default): bearer token, renewed and retried once when expired, session-ending errors
 * reported; `token`: bearer token only (sign-out); `none`: no token (sign-in, refresh, sign-up).
 */
export type AuthMode = 'session' | 'token' | 'none';

export interface RequestOptions<T> {
  query?: QueryParams;
  /** A plain value is sent as JSON; FormData is sent as multipart (the browser sets the boundary). */
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** Validates the JSON response (e.g. a domain zod schema's `parse`); without it the body is trusted. */
  parse?: (data: unknown) => T | Promise<T>;
  auth?: AuthMode;
}

export interface HttpClient {
  request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  /** A binary response (PDF, DOCX, ZIP) as a Blob. */
  blob(method: HttpMethod, path: string, options?: Omit<RequestOptions<Blob>, 'parse'>): Promise<Blob>;
}

function isFormData(body: unknown): body is FormData {
  return typeof FormData !== 'undefined' && body instanceof FormData;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function joinUrl(baseUrl: string, path: string, query?: QueryParams): string {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const rest = path.startsWith('/') ? path : `/${path}`;
  return `${base}${rest}${buildQueryString(query)}`;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/** A small typed client over fetch: base path, bearer token, query strings and ApiError on failure. */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const baseUrl = options.baseUrl ?? API_BASE_PATH;
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));

  async function sendOnce(
    method: HttpMethod,
    path: string,
    request: Omit<RequestOptions<unknown>, 'parse'>,
    accept: string,
    token: string | null | undefined,
  ): Promise<Response> {
    const headers = new Headers(request.headers);
    if (!headers.has('Accept')) headers.set('Accept', accept);
    if (token) headers.set('Authorization', `Bearer ${token}`);

    let body: BodyInit | undefined;
    if (isFormData(request.body)) {
      body = request.body;
    } else if (request.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(request.body);
    }

    try {
      return await doFetch(joinUrl(baseUrl, path, request.query), {
        method,
        headers,
        body,
        signal: request.signal,
        credentials: 'same-origin',
      });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw networkError(error);
    }
  }

  async function send(
    method: HttpMethod,
    path: string,
    request: Omit<RequestOptions<unknown>, 'parse'>,
    accept: string,
  ): Promise<Response> {
    const mode = request.auth ?? 'session';
    const token = mode === 'none' ? null : options.getToken?.();
    const response = await sendOnce(method, path, request, accept, token);
    if (response.ok) return response;
    const error = await apiErrorFromResponse(response);
    const hooks = options.session;
    if (mode !== 'session' || !token || !hooks) throw error;

    if (isRenewableTokenError(error)) {
      const fresh = await hooks.renewToken(token).catch(() => null);
      if (!fresh) {
        hooks.onSessionEnded(error);
        throw error;
      }
      const retried = await sendOnce(method, path, request, accept, fresh);
      if (retried.ok) return retried;
      const retryError = await apiErrorFromResponse(retried);
      if (endsIdentitySession(retryError, true)) hooks.onSessionEnded(retryError);
      throw retryError;
    }
    if (endsIdentitySession(error, false)) hooks.onSessionEnded(error);
    throw error;
  }

  async function request<T>(method: HttpMethod, path: string, opts: RequestOptions<T> = {}): Promise<T> {
    const response = await send(method, path, opts, 'application/json');
    const data = await readJson(response);
    return opts.parse ? await opts.parse(data) : (data as T);
  }

  return {
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    put: (path, body, opts) => request('PUT', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
    async blob(method, path, opts = {}) {
      const response = await send(method, path, opts, '*/*');
      return response.blob();
    },
  };
}
