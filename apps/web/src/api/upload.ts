import { API_BASE_PATH } from './http.ts';
import { apiErrorFromText, networkError, type ApiError } from './api-error.ts';
import { sessionBridge, type SessionBridge } from './session-bridge.ts';
import { endsIdentitySession, isRenewableTokenError } from './session-errors.ts';

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100, rounded down. */
  percent: number;
}

export interface UploadOptions {
  method?: 'POST' | 'PUT' | 'PATCH';
  path: string;
  form: FormData;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Injected for tests. */
  session?: SessionBridge;
  createRequest?: () => XMLHttpRequest;
}

interface RawResult {
  status: number;
  text: string;
}

function errorOf(result: RawResult): Promise<ApiError> {
  return apiErrorFromText(result.status, result.text);
}

function sendOnce(options: UploadOptions, token: string | null): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const xhr = options.createRequest?.() ?? new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', `${API_BASE_PATH}${options.path}`);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.withCredentials = true;
    xhr.upload.addEventListener('progress', (event) => {
      if (!event.lengthComputable) return;
      options.onProgress?.({
        loaded: event.loaded,
        total: event.total,
        percent: Math.floor((event.loaded / event.total) * 100),
      });
    });
    xhr.addEventListener('load', () => resolve({ status: xhr.status, text: xhr.responseText }));
    xhr.addEventListener('error', () => reject(networkError(new Error('upload failed'))));
    xhr.addEventListener('abort', () => reject(new DOMException('Upload aborted', 'AbortError')));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(options.form);
  });
}

/**
 * A multipart request through XMLHttpRequest, because fetch cannot report upload progress. Same
 * contract as the API client: bearer token, one renewal and retry on an expired token, ApiError on
 * failure, session-ending errors reported.
 */
export async function uploadForm<T>(options: UploadOptions): Promise<T> {
  const session = options.session ?? sessionBridge;
  const token = session.token();
  let result = await sendOnce(options, token);
  if (result.status >= 200 && result.status < 300)
    return (result.text ? JSON.parse(result.text) : undefined) as T;
  let error = await errorOf(result);
  if (token && isRenewableTokenError(error)) {
    const fresh = await session.renewToken(token).catch(() => null);
    if (!fresh) {
      session.onSessionEnded(error);
      throw error;
    }
    result = await sendOnce(options, fresh);
    if (result.status >= 200 && result.status < 300)
      return (result.text ? JSON.parse(result.text) : undefined) as T;
    error = await errorOf(result);
    if (endsIdentitySession(error, true)) session.onSessionEnded(error);
    throw error;
  }
  if (endsIdentitySession(error, false)) session.onSessionEnded(error);
  throw error;
}
