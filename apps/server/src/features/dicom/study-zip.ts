// A study's images as one zip, from its archive, streamed: Orthanc builds it itself (GET
// /studies/{id}/archive); for any other DICOMweb archive the RIS builds it while the instances
// arrive over WADO-RS (multipart/related, one part per instance), one entry per instance.
import { Readable } from 'node:stream';
import { AppError } from '../../http/app-error.ts';
import { archiveFetch, type TArchiveConnection } from '../../integrations/pacs/archive-client.ts';
import type { TImageStudy } from './dicom.queries.ts';
import { boundaryOf, multipartParts } from './multipart-parts.ts';
import { nodeStreamOf } from './stream-reply.ts';
import { orthancStudyId, withArchive } from './study-archive.ts';
import { partsAsFiles, zipStream } from './zip-stream.ts';

export type TStudyZip = { body: Readable; contentLength: string | null };

/** Accept of a WADO-RS study retrieval: Part 10 instances as stored (no transcoding). */
const WADO_ACCEPT = 'multipart/related; type="application/dicom"; transfer-syntax=*';

const notHeld = () => new AppError('NOT_FOUND', 'The image archive holds no images of this study');

function failed(connection: TArchiveConnection, status: number, why = `it answered ${status}`): AppError {
  return new AppError(
    'ARCHIVE_UNAVAILABLE',
    `The image archive "${connection.name}" could not give the study's images (${why}). Try again later or ask an administrator to check it.`,
    { archive: connection.name, status },
    502,
  );
}

/** A zip entry name for the n-th instance. */
export const instanceEntryName = (n: number) => `DICOM/IM${String(n).padStart(5, '0')}.dcm`;

/**
 * Opens the study's zip (404 when the archive does not hold it, 502/503 ARCHIVE_UNAVAILABLE when it
 * fails before the first byte). `signal` (the browser went away) ends the archive's work.
 */
export async function openStudyZip(
  connection: TArchiveConnection,
  study: Pick<TImageStudy, 'archiveStudyKey' | 'studyUid'>,
  signal: AbortSignal,
): Promise<TStudyZip> {
  const studyUid = study.studyUid;
  if (!studyUid) throw notHeld();
  const response = await withArchive(connection, async () => {
    if (connection.kind === 'orthanc' && connection.orthancUrl) {
      const orthancId = await orthancStudyId(connection, study, signal);
      if (!orthancId) return null;
      return archiveFetch(connection, {
        root: 'orthanc',
        path: `/studies/${encodeURIComponent(orthancId)}/archive`,
        signal,
        streamBody: true,
      });
    }
    return archiveFetch(connection, {
      root: 'dicomweb',
      path: `/studies/${studyUid}`,
      headers: { accept: WADO_ACCEPT },
      signal,
      streamBody: true,
    });
  });
  if (!response || response.status === 404) {
    await response?.body?.cancel();
    throw notHeld();
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw failed(connection, response.status);
  }
  if (connection.kind === 'orthanc' && connection.orthancUrl) {
    return { body: nodeStreamOf(response.body), contentLength: response.headers.get('content-length') };
  }
  const boundary = boundaryOf(response.headers.get('content-type'));
  if (!boundary) {
    await response.body.cancel();
    throw failed(connection, response.status, 'not a multipart answer');
  }
  const parts = multipartParts(response.body, boundary);
  return { body: Readable.from(zipStream(partsAsFiles(parts, instanceEntryName))), contentLength: null };
}
