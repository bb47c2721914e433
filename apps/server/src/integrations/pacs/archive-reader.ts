// What the synchronisation reads from an archive: a study by UID (QIDO-RS, study and series level),
// studies by date window (QIDO-RS), and Orthanc's /changes feed.
import { z } from 'zod';
import { ArchiveError, archiveJson, type TArchiveConnection } from './archive-client.ts';
import {
  archiveStudyOf,
  parseDicomJsonList,
  SERIES_INCLUDE_FIELDS,
  STUDY_INCLUDE_FIELDS,
  type TArchiveStudy,
  type TDicomJsonDataset,
} from './dicom-json.ts';

function includeFields(query: URLSearchParams, fields: readonly string[]): URLSearchParams {
  for (const field of fields) query.append('includefield', field);
  return query;
}

/** The study as the archive has it now, or null when it has no such study. */
export async function readStudy(
  connection: TArchiveConnection,
  studyUid: string,
  signal?: AbortSignal,
): Promise<TArchiveStudy | null> {
  const studyQuery = includeFields(new URLSearchParams({ StudyInstanceUID: studyUid }), STUDY_INCLUDE_FIELDS);
  const [study] = parseDicomJsonList(
    await archiveJson(connection, {
      root: 'dicomweb',
      path: '/studies',
      query: studyQuery,
      ...(signal ? { signal } : {}),
    }),
  );
  if (!study) return null;
  let series: TDicomJsonDataset[] = [];
  try {
    series = parseDicomJsonList(
      await archiveJson(connection, {
        root: 'dicomweb',
        path: `/studies/${encodeURIComponent(studyUid)}/series`,
        query: includeFields(new URLSearchParams(), SERIES_INCLUDE_FIELDS),
        ...(signal ? { signal } : {}),
      }),
    );
  } catch (error) {
    // Deleted between the two calls: the study level is all there is.
    if (!(error instanceof ArchiveError && error.status === 404)) throw error;
  }
  return archiveStudyOf(study, series);
}

/** Studies whose StudyDate is in [from, to] (YYYYMMDD), one page. */
export async function listStudiesByDate(
  connection: TArchiveConnection,
  window: { from: string; to: string; offset: number; limit: number },
  signal?: AbortSignal,
): Promise<TDicomJsonDataset[]> {
  const query = new URLSearchParams({
    StudyDate: `${window.from}-${window.to}`,
    offset: String(window.offset),
    limit: String(window.limit),
  });
  return parseDicomJsonList(
    await archiveJson(connection, {
      root: 'dicomweb',
      path: '/studies',
      query,
      ...(signal ? { signal } : {}),
    }),
  );
}

const ZOrthancChange = z
  .object({
    ChangeType: z.string(),
    ResourceType: z.string(),
    ID: z.string().max(128),
    Seq: z.number().int(),
  })
  .loose();
const ZOrthancChanges = z
  .object({ Changes: z.array(ZOrthancChange), Done: z.boolean(), Last: z.number().int() })
  .loose();
export type TOrthancChange = z.infer<typeof ZOrthancChange>;

/** One page of Orthanc's change log after `since` (GET /changes). */
export async function orthancChanges(
  connection: TArchiveConnection,
  since: number,
  limit: number,
  signal?: AbortSignal,
): Promise<{ changes: TOrthancChange[]; last: number; done: boolean }> {
  const body = await archiveJson(connection, {
    root: 'orthanc',
    path: '/changes',
    query: new URLSearchParams({ since: String(since), limit: String(limit) }),
    ...(signal ? { signal } : {}),
  });
  const parsed = ZOrthancChanges.safeParse(body);
  if (!parsed.success)
    throw new ArchiveError('malformed', `${connection.name}: /changes did not answer a change log`);
  return { changes: parsed.data.Changes, last: parsed.data.Last, done: parsed.data.Done };
}

/** The newest change's sequence number (GET /changes?last): where a new archive starts from. */
export async function orthancLastChange(
  connection: TArchiveConnection,
  signal?: AbortSignal,
): Promise<number> {
  const page = await archiveJson(connection, {
    root: 'orthanc',
    path: '/changes',
    query: new URLSearchParams({ last: '' }),
    ...(signal ? { signal } : {}),
  });
  const parsed = ZOrthancChanges.safeParse(page);
  if (!parsed.success)
    throw new ArchiveError('malformed', `${connection.name}: /changes?last did not answer a change log`);
  return parsed.data.Last;
}

const ZOrthancStudy = z
  .object({ MainDicomTags: z.object({ StudyInstanceUID: z.string().max(64) }).loose() })
  .loose();

/** The Study Instance UID of an Orthanc study id, or null when Orthanc no longer has it. */
export async function orthancStudyUid(
  connection: TArchiveConnection,
  orthancId: string,
  signal?: AbortSignal,
): Promise<string | null> {
  try {
    const body = await archiveJson(connection, {
      root: 'orthanc',
      path: `/studies/${encodeURIComponent(orthancId)}`,
      ...(signal ? { signal } : {}),
    });
    const parsed = ZOrthancStudy.safeParse(body);
    if (!parsed.success)
      throw new ArchiveError('malformed', `${connection.name}: /studies/${orthancId} is not a study`);
    return parsed.data.MainDicomTags.StudyInstanceUID;
  } catch (error) {
    if (error instanceof ArchiveError && error.status === 404) return null;
    throw error;
  }
}
