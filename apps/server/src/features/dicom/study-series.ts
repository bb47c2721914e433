// A study's series as the archive's QIDO-RS lists them, and a thumbnail of one series: the archive's
// rendered middle instance (WADO-RS /rendered, JPEG).
import type { TDicomSeries } from '@ris/domain';
import { isDicomUid } from '@ris/domain';
import {
  archiveFetch,
  archiveJson,
  type TArchiveConnection,
} from '../../integrations/pacs/archive-client.ts';
import {
  DICOM_TAG,
  dicomInteger,
  dicomText,
  parseDicomJsonList,
  type TDicomJsonDataset,
} from '../../integrations/pacs/dicom-json.ts';

const TAG = DICOM_TAG;

/** Text of an attribute, or null when absent or blank. */
const text = (dataset: TDicomJsonDataset, tag: string): string | null => dicomText(dataset, tag) || null;

/** The study's series, by series number (then UID); series the archive describes without a UID are left out. */
export async function listSeries(connection: TArchiveConnection, studyUid: string): Promise<TDicomSeries[]> {
  const query = new URLSearchParams();
  for (const tag of [TAG.modality, TAG.seriesDescription, TAG.seriesNumber, TAG.seriesInstanceCount])
    query.append('includefield', tag);
  const body = await archiveJson(connection, {
    root: 'dicomweb',
    path: `/studies/${studyUid}/series`,
    query,
  });
  return parseDicomJsonList(body, `${connection.name}: the series list`)
    .map((dataset) => ({
      series_uid: text(dataset, TAG.seriesUid) ?? '',
      modality: text(dataset, TAG.modality),
      description: text(dataset, TAG.seriesDescription),
      number: dicomInteger(dataset, TAG.seriesNumber),
      instance_count: dicomInteger(dataset, TAG.seriesInstanceCount),
    }))
    .filter((series) => isDicomUid(series.series_uid))
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
  const instances = parseDicomJsonList(body, `${connection.name}: the instance list`)
    .map((dataset) => ({
      uid: text(dataset, TAG.sopInstanceUid),
      number: dicomInteger(dataset, TAG.instanceNumber),
    }))
    .filter(
      (instance): instance is { uid: string; number: number | null } =>
        !!instance.uid && isDicomUid(instance.uid),
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
