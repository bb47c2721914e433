import { apiRelativePath, createHttpClient, type HttpMethod } from '../../api/http.ts';
import { sessionBridge } from '../../api/session-bridge.ts';

/** A generated file as the server sent it: its bytes and the name of its Content-Disposition. */
export interface TFileResponse {
  blob: Blob;
  /** From `Content-Disposition` (filename* first, then filename); null when the server sent none. */
  fileName: string | null;
}

/**
 * The file name of a Content-Disposition header: RFC 6266/5987 `filename*=UTF-8''…` wins over the
 * plain `filename="…"`; null when neither is there or the header is unreadable.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim();
  if (extended) {
    const match = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(extended.replace(/^"|"$/g, ''));
    if (match?.[2]) {
      try {
        const decoded = decodeURIComponent(match[2]).trim();
        if (decoded) return decoded;
      } catch {
        // A malformed percent-encoding: fall back to the plain parameter.
      }
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1];
  const plain = quoted?.replace(/\\(.)/g, '$1') ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
  return plain?.trim() || null;
}

/**
 * A binary call through the app's API contract (bearer token, one renewal on an expired token,
 * ApiError on failure) that also reads the answer's Content-Disposition, which the shared client's
 * `blob` does not expose. A client is made per call, so concurrent downloads never mix headers.
 */
export async function requestFile(
  method: HttpMethod,
  path: string,
  options: { body?: unknown; signal?: AbortSignal; baseUrl?: string } = {},
): Promise<TFileResponse> {
  let disposition: string | null = null;
  const client = createHttpClient({
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    getToken: sessionBridge.token,
    session: sessionBridge,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (response.ok) disposition = response.headers.get('Content-Disposition');
      return response;
    },
  });
  const blob = await client.blob(method, path, { body: options.body, signal: options.signal });
  return { blob, fileName: fileNameFromDisposition(disposition) };
}

/**
 * GET of a download URL the server handed out (a report's pdf_url, a path or an address on this
 * origin): through the API client, bearer token included (harmless on a pre-authorised URL).
 */
export function downloadUrl(url: string, signal?: AbortSignal): Promise<TFileResponse> {
  const parsed = new URL(url, window.location.origin);
  if (parsed.origin !== window.location.origin) {
    return Promise.reject(new Error('The download address is not on this server'));
  }
  const path = `${parsed.pathname}${parsed.search}`;
  const relative = apiRelativePath(path);
  if (relative !== null) return requestFile('GET', relative, { signal });
  return requestFile('GET', path, { signal, baseUrl: '' });
}
