// A study's series as the archive's QIDO-RS lists them, and a thumbnail of one series: the archive's
// rendered middle instance (WADO-RS /rendered, JPEG).
import type { TDicomSeries } from '@ris/domain';
import {
  ArchiveError,
  archiveFetch,
  archiveJson,
  type TArchiveConnection,
} from '../../integrations/pacs/archive-client.ts';

type TDicomJson = Record<string, { Value?: unknown[] } | undefined>;

const TAG = {
  seriesUid: '0020000E',
  modality: '00080060',
  description: '0008103E',
  number: '00200011',
  instances: '00201209',
  sopInstanceUid: '00080018',
  instanceNumber: '00200013',
} as const;

function first(dataset: TDicomJson, tag: string): unknown {
  return dataset[tag]?.Value?.[0];
}

function text(dataset: TDicomJson, tag: string): string | null {
  const value = first(dataset, tag);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function numeric(dataset: TDicomJson, tag: string): number | null {
  const value = first(dataset, tag);
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(parsed) ? parsed : null;
}

function datasets(body: unknown, what: string, connection: TArchiveConnection): TDicomJson[] {
  if (!Array.isArray(body))
    throw new ArchiveError('malformed', `${connection.name}: ${what} is not a DICOM JSON array`);
  return body.filter((item): item is TDicomJson => typeof item === 'object' && item !== null);
}

const UID = /^[0-9]+(\.[0-9]+)*$/;

/** The study's series, by series number (then UID); series the archive describes without a UID are left out. */
export async function listSeries(connection: TArchiveConnection, studyUid: string): Promise<TDicomSeries[]> {
  const query = new URLSearchParams();
  for (const tag of [TAG.modality, TAG.description, TAG.number, TAG.instances])
    query.append('includefield', tag);
  const body = await archiveJson(connection, {
    root: 'dicomweb',
    path: `/studies/${studyUid}/series`,
    query,
  });
  return datasets(body, 'the series list', connection)
    .map((dataset) => ({
      series_uid: text(dataset, TAG.seriesUid) ?? '',
      modality: text(dataset, TAG.modality),
      description: text(dataset, TAG.description),
      number: numeric(dataset, TAG.number),
      instance_count: numeric(dataset, TAG.instances),
    }))
    .filter((series) => UID.test(series.series_uid))
    .sort(
      (a, b) =>
        (a.number ?? Number.MAX_SAFE_INTEGER) - (b.number ?? Number.MAX_SAFE_INTEGER) ||
        a.series_uid.localeCompare(b.series_uid),
    );
}

/** The SOP Instance UID of the series' middle instance by instance number, or null when the series is empty or absent. */
export async function middleInstance(
  connection: TArchiveConnection,
  studyUid: string,
  seriesUid: string,
): Promise<string | null> {
  const query = new URLSearchParams({ includefield: TAG.instanceNumber });
  const body = await archiveJson(connection, {
    root: 'dicomweb',
    path: `/studies/${studyUid}/series/${seriesUid}/instances`,
    query,
  });
  const instances = datasets(body, 'the instance list', connection)
    .map((dataset) => ({
      uid: text(dataset, TAG.sopInstanceUid),
      number: numeric(dataset, TAG.instanceNumber),
    }))
    .filter(
      (instance): instance is { uid: string; number: number | null } =>
        !!instance.uid && UID.test(instance.uid),
    )
    .sort((a, b) => (a.number ?? 0) - (b.number ?? 0) || a.uid.localeCompare(b.uid));
  return instances[Math.floor((instances.length - 1) / 2)]?.uid ?? null;
}

/** The archive's rendering of one instance as JPEG (the response, to stream on). */
export function renderedInstance(
  connection: TArchiveConnection,
  ids: { studyUid: string; seriesUid: string; instanceUid: string },
  signal?: AbortSignal,
): Promise<Response> {
  return archiveFetch(connection, {
    root: 'dicomweb',
    path: `/studies/${ids.studyUid}/series/${ids.seriesUid}/instances/${ids.instanceUid}/rendered`,
    headers: { accept: 'image/jpeg' },
    ...(signal ? { signal } : {}),
  });
}
