// "Test connection": call the archive now with its stored credentials and say, in words an admin can
// act on, what answered. Every failure (refused credentials, time-out, unreachable host, not DICOM
// JSON) is an answer with ok false, never an error status of our own.
import type { TArchiveCheck, TArchiveTestResult } from '@ris/domain';
import {
  ArchiveError,
  archiveJson,
  archiveUrl,
  type TArchiveConnection,
  type TArchiveRequest,
} from '../../../../integrations/pacs/archive-client.ts';
import { connectionOf } from '../../../../integrations/pacs/archive-connections.ts';
import type { SecretBox } from '../../../../integrations/sealed-secrets.ts';
import type { TArchiveRow } from '../archives.queries.ts';

const TARGET_LABEL: Record<TArchiveCheck['target'], string> = { dicomweb: 'DICOMweb', orthanc: 'Orthanc' };

/** The deepest cause's code or message of a failed fetch (ECONNREFUSED, ENOTFOUND ...). */
function rootCause(error: unknown): string {
  let current: unknown = error;
  let text = error instanceof Error ? error.message : String(error);
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as Error & { code?: unknown }).code;
    text = typeof code === 'string' ? code : current.message;
    current = current.cause;
  }
  return text;
}

function failureMessage(error: unknown, timeoutMs: number): { status: number | null; message: string } {
  if (!(error instanceof ArchiveError)) return { status: null, message: `Failed: ${rootCause(error)}` };
  switch (error.kind) {
    case 'timeout':
      return { status: null, message: `No answer within ${Math.round(timeoutMs / 1000)} s` };
    case 'unreachable':
      return { status: null, message: `Cannot be reached (${rootCause(error.cause)})` };
    case 'malformed':
      return { status: error.status, message: 'Answered, but not with JSON: is this the right root URL?' };
    case 'status': {
      const status = error.status;
      if (status === 401 || status === 403)
        return { status, message: `The archive refused the credentials (HTTP ${status})` };
      if (status === 404) return { status, message: 'Not found (HTTP 404): is this the right root URL?' };
      if (status !== null && status >= 300 && status < 400)
        return { status, message: `Redirected (HTTP ${status}): give the final URL` };
      return { status, message: `The archive answered HTTP ${status ?? '?'}` };
    }
  }
}

async function check(
  connection: TArchiveConnection,
  target: TArchiveCheck['target'],
  request: TArchiveRequest,
  /** Whether the JSON that came back is what this root answers, in words. */
  judge: (body: unknown) => { ok: boolean; message: string },
): Promise<TArchiveCheck> {
  const url = archiveUrl(connection, request);
  try {
    const body = await archiveJson(connection, request);
    return { target, url, status: 200, ...judge(body) };
  } catch (error) {
    return { target, url, ok: false, ...failureMessage(error, request.timeoutMs ?? 10_000) };
  }
}

/** Calls the archive: DICOMweb QIDO-RS `studies?limit=1`, and for Orthanc also its REST `/system`. */
export async function testArchiveConnection(
  row: TArchiveRow,
  box: SecretBox,
  timeoutMs: number,
): Promise<TArchiveTestResult> {
  const started = performance.now();
  let connection: TArchiveConnection;
  try {
    connection = connectionOf(row, box);
  } catch {
    return {
      ok: false,
      message: 'The stored password or token cannot be opened (the server key changed): enter it again',
      details: { checks: [], orthanc_version: null, elapsed_ms: 0 },
    };
  }
  const checks: TArchiveCheck[] = [];
  checks.push(
    await check(
      connection,
      'dicomweb',
      { root: 'dicomweb', path: '/studies', query: new URLSearchParams({ limit: '1' }), timeoutMs },
      (body) =>
        Array.isArray(body)
          ? { ok: true, message: 'QIDO-RS answered' }
          : { ok: false, message: 'Answered, but not with a list of studies: is this the DICOMweb root?' },
    ),
  );
  let version: string | null = null;
  if (connection.kind === 'orthanc' && connection.orthancUrl) {
    checks.push(
      await check(connection, 'orthanc', { root: 'orthanc', path: '/system', timeoutMs }, (body) => {
        version =
          body && typeof body === 'object' && 'Version' in body && typeof body.Version === 'string'
            ? body.Version
            : null;
        return version
          ? { ok: true, message: `Orthanc ${version} answered` }
          : { ok: false, message: 'Answered, but not as Orthanc (no Version in /system)' };
      }),
    );
  }
  const failed = checks.find((item) => !item.ok);
  const elapsed = Math.round(performance.now() - started);
  return {
    ok: failed === undefined,
    message: failed
      ? `${TARGET_LABEL[failed.target]}: ${failed.message}`
      : `Connected: ${checks.map((item) => item.message).join('; ')}`,
    details: { checks, orthanc_version: version, elapsed_ms: elapsed },
  };
}
