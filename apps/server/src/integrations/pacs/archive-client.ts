// HTTP to an image archive: its DICOMweb root or, for Orthanc, its REST root, with the archive's
// credentials added here (they never leave the server) and a time-out on every call.
export type TPacsArchiveKind = 'orthanc' | 'dicomweb';

/** Everything needed to call one archive; `id` null is the PACS_DICOMWEB_URL default. */
export type TArchiveConnection = {
  id: string | null;
  organisationId: string | null;
  name: string;
  kind: TPacsArchiveKind;
  /** DICOMweb root without a trailing slash, e.g. http://127.0.0.1:8042/dicom-web */
  dicomwebUrl: string;
  /** Orthanc's REST root without a trailing slash (kind 'orthanc'). */
  orthancUrl: string | null;
  /** The Authorization header value, opened from the sealed secret; null without credentials. */
  authorization: string | null;
};

export type TArchiveErrorKind = 'unreachable' | 'timeout' | 'status' | 'malformed';

/** A call to an archive that failed; `message` may name the archive's URL (logs, admin screen). */
export class ArchiveError extends Error {
  readonly kind: TArchiveErrorKind;
  readonly status: number | null;

  constructor(
    kind: TArchiveErrorKind,
    message: string,
    status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ArchiveError';
    this.kind = kind;
    this.status = status;
  }
}

export const ARCHIVE_TIMEOUT_MS = 15_000;

export type TArchiveRequest = {
  /** Which root `path` is under. */
  root: 'dicomweb' | 'orthanc';
  /** Path below the root, starting with '/', already encoded. */
  path: string;
  query?: URLSearchParams;
  method?: 'GET' | 'POST' | 'DELETE' | 'HEAD';
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  /** Aborts the call (e.g. the browser went away). */
  signal?: AbortSignal;
  /** Time until the response headers arrive (default 15 s); the body may stream for longer. */
  timeoutMs?: number;
  /**
   * A long download streamed on (a study's zip): the time-out stops once the headers arrived, so
   * only `signal` ends the body. Otherwise the time-out covers the whole call, body included.
   */
  streamBody?: boolean;
};

/** The absolute URL of a request to the archive. */
export function archiveUrl(
  connection: TArchiveConnection,
  request: Pick<TArchiveRequest, 'root' | 'path' | 'query'>,
): string {
  const root = request.root === 'orthanc' ? connection.orthancUrl : connection.dicomwebUrl;
  if (!root) throw new ArchiveError('malformed', `archive ${connection.name} has no ${request.root} root`);
  const query = request.query && [...request.query.keys()].length > 0 ? `?${request.query.toString()}` : '';
  return `${root}${request.path}${query}`;
}

/**
 * Calls the archive. Resolves with any HTTP answer (the caller decides what a 404 means); rejects
 * with ArchiveError when the archive cannot be reached or does not answer in time.
 */
export async function archiveFetch(
  connection: TArchiveConnection,
  request: TArchiveRequest,
): Promise<Response> {
  const url = archiveUrl(connection, request);
  const headers: Record<string, string> = { ...request.headers };
  if (connection.authorization) headers['authorization'] = connection.authorization;
  const timeoutMs = request.timeoutMs ?? ARCHIVE_TIMEOUT_MS;
  const timer = request.streamBody ? new AbortController() : null;
  const pending = timer ? setTimeout(() => timer.abort(), timeoutMs) : null;
  const timeout = timer ? timer.signal : AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  try {
    return await fetch(url, {
      method: request.method ?? 'GET',
      headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal,
      redirect: 'manual',
    });
  } catch (error) {
    if (timeout.aborted)
      throw new ArchiveError(
        'timeout',
        `${connection.name}: no answer within ${request.timeoutMs ?? ARCHIVE_TIMEOUT_MS} ms`,
        null,
        { cause: error },
      );
    if (request.signal?.aborted) throw error;
    throw new ArchiveError(
      'unreachable',
      `${connection.name}: cannot be reached (${errorMessage(error)})`,
      null,
      { cause: error },
    );
  } finally {
    if (pending) clearTimeout(pending);
  }
}

/** archiveFetch, then JSON; a non-2xx answer or a body that is not JSON is an ArchiveError. */
export async function archiveJson(
  connection: TArchiveConnection,
  request: TArchiveRequest,
): Promise<unknown> {
  const response = await archiveFetch(connection, {
    ...request,
    headers: {
      accept: request.root === 'dicomweb' ? 'application/dicom+json' : 'application/json',
      ...request.headers,
    },
  });
  if (response.status === 204) return [];
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 300);
    throw new ArchiveError(
      'status',
      `${connection.name}: ${request.method ?? 'GET'} ${request.path} answered ${response.status} ${text}`,
      response.status,
    );
  }
  try {
    return await response.json();
  } catch (error) {
    throw new ArchiveError(
      'malformed',
      `${connection.name}: ${request.path} did not answer JSON`,
      response.status,
      { cause: error },
    );
  }
}

function errorMessage(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : null;
  return cause ?? (error instanceof Error ? error.message : String(error));
}

/** The Authorization header value for basic or bearer credentials. */
export function authorizationOf(
  authKind: string,
  username: string | null,
  secret: string | null,
): string | null {
  if (authKind === 'basic' && username !== null && secret !== null)
    return `Basic ${Buffer.from(`${username}:${secret}`).toString('base64')}`;
  if (authKind === 'bearer' && secret !== null) return `Bearer ${secret}`;
  return null;
}
