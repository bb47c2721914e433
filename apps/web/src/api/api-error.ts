/** Code of an ApiError raised when the server could not be reached at all (status 0). */
export const NETWORK_ERROR_CODE = 'NETWORK_ERROR';

interface ApiErrorInit {
  status: number;
  code?: string | undefined;
  serverMessage?: string | undefined;
  details?: unknown;
  cause?: unknown;
}

/**
 * Every failed API call becomes one of these. `code` and `serverMessage` come from the server's
 * `{ error: { code, message, details? } }` body and are undefined when the body had another shape;
 * status 0 means the request never got an answer (network failure).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly details: unknown;

  constructor(init: ApiErrorInit) {
    super(
      init.serverMessage ??
        (init.status === 0 ? 'The server could not be reached' : `Request failed with status ${init.status}`),
      { cause: init.cause },
    );
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.details = init.details;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Reads a failed response's body once; never throws, whatever the body is. */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // An unreadable body is treated like an empty one.
  }
  return apiErrorFromText(response.status, text);
}

/** The ApiError of a failed answer's status and body text (fetch or XMLHttpRequest); never throws. */
export async function apiErrorFromText(status: number, text: string): Promise<ApiError> {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const { ZErrorBody } = await import('./auth-schemas.ts');
  const parsed = ZErrorBody.safeParse(body);
  if (!parsed.success) return new ApiError({ status });
  const { code, message, details } = parsed.data.error;
  return new ApiError({ status, code, serverMessage: message || undefined, details });
}

/** The ApiError of a request whose fetch itself rejected (offline, DNS, CORS, aborted). */
export function networkError(cause: unknown): ApiError {
  return new ApiError({ status: 0, code: NETWORK_ERROR_CODE, cause });
}

/**
 * Text to show for a failed call: the server's message when it sent one, else the specification's
 * fallback for that action (e.g. 'Failed to fetch worklist').
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.serverMessage) return error.serverMessage;
  return fallback;
}

/** Code of a 400 whose `details.fields` names each invalid field. */
export const VALIDATION_FAILED_CODE = 'VALIDATION_FAILED';

/** Field name → message, one entry per field (the first message wins). */
export type FieldErrors = Readonly<Record<string, string>>;

function fieldName(path: string): string {
  // The server may name a field by its path ('body.email', '/email'); forms know it by its last part.
  const parts = path.split(/[./]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

/**
 * The inline errors of a VALIDATION_FAILED answer (`details.fields: [{ field, message }]`); empty for
 * any other error or a body of another shape.
 */
export function validationFieldErrors(error: unknown): FieldErrors {
  if (!isApiError(error) || error.code !== VALIDATION_FAILED_CODE) return {};
  const details = error.details;
  if (typeof details !== 'object' || details === null || !('fields' in details)) return {};
  const { fields } = details;
  if (!Array.isArray(fields)) return {};
  const result: Record<string, string> = {};
  for (const entry of fields as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { field, message } = entry as { field?: unknown; message?: unknown };
    if (typeof field !== 'string' || typeof message !== 'string') continue;
    const name = fieldName(field);
    result[name] ??= message;
  }
  return result;
}
