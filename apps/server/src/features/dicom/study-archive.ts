// A study's archive for the image calls: which archive, Orthanc's own id of the study, and what an
// archive failure means to the person using the app (ARCHIVE_UNAVAILABLE: the archive's fault, not
// bad input: 503 when it cannot be reached or is too slow, 502 when it answers with an error).
import type { FastifyInstance } from 'fastify';
import {
  ArchiveError,
  archiveJson,
  type TArchiveConnection,
} from '../../integrations/pacs/archive-client.ts';
import { archiveOfStudy } from '../../integrations/pacs/archive-connections.ts';
import { AppError } from '../../http/app-error.ts';
import type { TImageStudy } from './dicom.queries.ts';

/** The archive holding the study's images; 409 NO_ARCHIVE when none is configured for it. */
export async function requireStudyArchive(
  app: FastifyInstance,
  study: TImageStudy,
): Promise<TArchiveConnection> {
  const connection = await archiveOfStudy(
    app.deps.database.db,
    app.secretBox,
    app.deps.config.viewers.dicomwebUrl,
    study,
  );
  if (!connection) {
    throw new AppError(
      'NO_ARCHIVE',
      'No image archive is configured for this study: an administrator must connect one (Organisation → Archives) or set PACS_DICOMWEB_URL.',
      undefined,
      409,
    );
  }
  return connection;
}

/** 409 ARCHIVE_NOT_SUPPORTED for what only Orthanc's REST API can do. */
export function requireOrthanc(connection: TArchiveConnection, what: string): string {
  if (connection.kind !== 'orthanc' || !connection.orthancUrl) {
    throw new AppError(
      'ARCHIVE_NOT_SUPPORTED',
      `${what} needs an Orthanc archive (its REST API); "${connection.name}" is a plain DICOMweb archive, which has no standard way to do this.`,
      { archive: connection.name },
      409,
    );
  }
  return connection.orthancUrl;
}

/** An ArchiveError as the API's answer (other errors pass through unchanged). */
export function archiveFailure(error: unknown, connection: TArchiveConnection): unknown {
  if (!(error instanceof ArchiveError)) return error;
  const unreachable = error.kind === 'unreachable' || error.kind === 'timeout';
  const message = unreachable
    ? `The image archive "${connection.name}" cannot be reached right now; nothing was changed. Try again later or ask an administrator to check it.`
    : `The image archive "${connection.name}" answered with an error; nothing was changed. Try again later or ask an administrator to check it.`;
  return new AppError(
    'ARCHIVE_UNAVAILABLE',
    message,
    { archive: connection.name, reason: error.kind, status: error.status },
    unreachable ? 503 : 502,
  );
}

/** Runs an archive call, answering ARCHIVE_UNAVAILABLE when the archive fails. */
export async function withArchive<T>(connection: TArchiveConnection, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw archiveFailure(error, connection);
  }
}

type TLookupHit = { ID?: unknown; Type?: unknown };

/**
 * Orthanc's id of the study: the stored archive_study_key, else POST /tools/lookup with its UID;
 * null when Orthanc does not hold it.
 */
export async function orthancStudyId(
  connection: TArchiveConnection,
  study: Pick<TImageStudy, 'archiveStudyKey' | 'studyUid'>,
  signal?: AbortSignal,
): Promise<string | null> {
  if (study.archiveStudyKey && isOrthancId(study.archiveStudyKey)) return study.archiveStudyKey;
  if (!study.studyUid) return null;
  const hits = await archiveJson(connection, {
    root: 'orthanc',
    path: '/tools/lookup',
    method: 'POST',
    body: study.studyUid,
    headers: { 'content-type': 'text/plain' },
    ...(signal ? { signal } : {}),
  });
  if (!Array.isArray(hits)) return null;
  const hit = (hits as TLookupHit[]).find((entry) => entry.Type === 'Study' && typeof entry.ID === 'string');
  return typeof hit?.ID === 'string' ? hit.ID : null;
}

/** Orthanc ids are hex groups joined by dashes; anything else never reaches a URL path. */
export function isOrthancId(id: string): boolean {
  return /^[0-9a-f]{8}(-[0-9a-f]{8}){4}$/.test(id);
}
