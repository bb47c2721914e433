// One synchronisation pass over one archive: Orthanc's /changes feed from the stored cursor, or a
// QIDO-RS window by study date for any other archive (and once, when an Orthanc is first connected,
// for the studies of its last days). Each study is its own transaction (import-study.ts); the
// cursor moves after the page's studies are committed, so a crash replays a page, never skips one.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client.ts';
import { facilities, pacsArchiveFacilities, pacsArchives, studies } from '../../../db/schema/index.ts';
import { ArchiveError, type TArchiveConnection } from '../../../integrations/pacs/archive-client.ts';
import { connectionOf } from '../../../integrations/pacs/archive-connections.ts';
import {
  listStudiesByDate,
  orthancChanges,
  orthancLastChange,
  orthancStudyUid,
  readStudy,
} from '../../../integrations/pacs/archive-reader.ts';
import { archiveStudyOf, MalformedDicomJson, studyUidOf } from '../../../integrations/pacs/dicom-json.ts';
import type { SecretBox } from '../../../integrations/sealed-secrets.ts';
import { importStudy, markDeletedInArchive, type TImportOutcome, type TSyncArchive } from './import-study.ts';

/** Changes read per /changes page, and pages per pass (a pass is bounded; the next one goes on). */
const CHANGES_PAGE = 100;
const MAX_CHANGE_PAGES = 20;
/** QIDO page size and the most studies one window pass reads. */
const QIDO_PAGE = 100;
const MAX_WINDOW_STUDIES = 5_000;
/** A new archive brings the studies of its last days; a window pass re-reads this much overlap. */
export const BACKFILL_DAYS = 7;
const OVERLAP_DAYS = 2;
/** Studies read and imported at once (each is a few archive calls and one transaction). */
const IMPORT_CONCURRENCY = 4;

/** Runs `work` over `items`, at most `limit` at a time; the first failure rejects. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
/**
 * Orthanc drops a deleted study's entries from /changes, so deletions are found by comparing the
 * last BACKFILL_DAYS of study dates with what we hold: at most this often, and on every manual pull.
 */
const RECONCILE_MS = 5 * 60_000;

export type TSyncPass = {
  archiveId: string;
  organisationId: string;
  name: string;
  ok: boolean;
  error: string | null;
  added: number;
  updated: number;
  deleted: number;
  /** Studies that could not be placed (no facility, malformed), with why. */
  skipped: string[];
  /** Items to announce once committed. */
  changedStudyIds: string[];
};

type TPassContext = {
  db: TDb;
  archive: TSyncArchive;
  connection: TArchiveConnection;
  signal: AbortSignal | undefined;
  pass: TSyncPass;
};

function count(pass: TSyncPass, outcome: TImportOutcome) {
  if (outcome.kind === 'skipped') pass.skipped.push(outcome.reason);
  if (outcome.kind === 'added' || outcome.kind === 'activated') pass.added += 1;
  if (outcome.kind === 'updated') pass.updated += 1;
  pass.changedStudyIds.push(...outcome.studyIds);
}

async function importByUid(context: TPassContext, studyUid: string, archiveStudyKey: string | null) {
  let study;
  try {
    study = await readStudy(context.connection, studyUid, context.signal);
  } catch (error) {
    if (error instanceof MalformedDicomJson) {
      context.pass.skipped.push(`study ${studyUid}: ${error.message}`);
      return;
    }
    throw error;
  }
  if (!study) return;
  const outcome = await context.db.transaction((tx) =>
    importStudy(tx, { archive: context.archive, study, archiveStudyKey }),
  );
  count(context.pass, outcome);
}

async function markDeleted(context: TPassContext, key: { archiveStudyKey?: string; studyUids?: string[] }) {
  const ids = await context.db.transaction((tx) => markDeletedInArchive(tx, context.archive, key));
  context.pass.deleted += ids.length;
  context.pass.changedStudyIds.push(...ids);
}

/** Orthanc: apply StableStudy and deleted-study changes after the cursor. */
async function orthancPass(context: TPassContext, cursor: number): Promise<number> {
  let since = cursor;
  for (let page = 0; page < MAX_CHANGE_PAGES; page += 1) {
    const { changes, last, done } = await orthancChanges(
      context.connection,
      since,
      CHANGES_PAGE,
      context.signal,
    );
    const stable = new Set<string>();
    const deleted = new Set<string>();
    for (const change of changes) {
      if (change.ResourceType !== 'Study') continue;
      if (change.ChangeType === 'StableStudy') stable.add(change.ID);
      if (change.ChangeType === 'Deleted') deleted.add(change.ID);
    }
    await eachLimited(
      [...stable].filter((orthancId) => !deleted.has(orthancId)),
      IMPORT_CONCURRENCY,
      async (orthancId) => {
        const uid = await orthancStudyUid(context.connection, orthancId, context.signal);
        if (uid) await importByUid(context, uid, orthancId);
      },
    );
    for (const orthancId of deleted) await markDeleted(context, { archiveStudyKey: orthancId });
    since = Math.max(since, last);
    await context.db
      .update(pacsArchives)
      .set({ changesCursor: since })
      .where(eq(pacsArchives.id, context.archive.id));
    if (done || changes.length === 0) break;
  }
  return since;
}

function yyyymmdd(date: Date): string {
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}

/**
 * Any archive: the studies whose date is in the window, imported when new or changed (counts
 * compared with ours first, so a quiet poll reads one QIDO page and writes nothing). When the whole
 * window was read, items of this archive in the window that the archive no longer lists are marked.
 */
async function windowPass(context: TPassContext, from: Date, to: Date): Promise<void> {
  const window = { from: yyyymmdd(from), to: yyyymmdd(to) };
  const seen = new Set<string>();
  let complete = false;
  for (let offset = 0; offset < MAX_WINDOW_STUDIES; offset += QIDO_PAGE) {
    const page = await listStudiesByDate(
      context.connection,
      { ...window, offset, limit: QIDO_PAGE },
      context.signal,
    );
    const uids = page.map(studyUidOf).filter((uid): uid is string => uid !== null);
    uids.forEach((uid) => seen.add(uid));
    const known = uids.length
      ? await context.db
          .select({
            uid: studies.studyUid,
            series: studies.seriesCount,
            instances: studies.instanceCount,
            gone: studies.archiveDeletedAt,
          })
          .from(studies)
          .where(
            and(
              eq(studies.organisationId, context.archive.organisationId),
              inArray(studies.studyUid, uids),
              isNull(studies.duplicatedFromStudyId),
            ),
          )
      : [];
    const byUid = new Map(known.map((row) => [row.uid, row]));
    const wanted: string[] = [];
    for (const dataset of page) {
      const uid = studyUidOf(dataset);
      if (!uid) {
        context.pass.skipped.push('a study without a valid StudyInstanceUID');
        continue;
      }
      const ours = byUid.get(uid);
      if (ours && ours.gone === null) {
        const listed = archiveStudyOf(dataset, []);
        if (listed.seriesCount === ours.series && listed.instanceCount === ours.instances) continue;
      }
      wanted.push(uid);
    }
    await eachLimited(wanted, IMPORT_CONCURRENCY, (uid) => importByUid(context, uid, null));
    if (page.length < QIDO_PAGE) {
      complete = true;
      break;
    }
  }
  if (!complete) return;
  const missing = await context.db
    .select({ uid: studies.studyUid })
    .from(studies)
    .where(
      and(
        eq(studies.pacsArchiveId, context.archive.id),
        isNull(studies.archiveDeletedAt),
        isNull(studies.duplicatedFromStudyId),
        sql`(${studies.studyDatetime} at time zone 'UTC')::date between ${from.toISOString().slice(0, 10)}::date and ${to.toISOString().slice(0, 10)}::date`,
      ),
    );
  const gone = missing.map((row) => row.uid).filter((uid): uid is string => uid !== null && !seen.has(uid));
  if (gone.length > 0) await markDeleted(context, { studyUids: gone });
}

/** The archive as the sync sees it (with its facilities), or null when it no longer exists. */
export async function loadSyncArchive(db: TDb, archiveId: string) {
  const [row] = await db.select().from(pacsArchives).where(eq(pacsArchives.id, archiveId)).limit(1);
  if (!row) return null;
  const served = await db
    .select({
      facilityId: pacsArchiveFacilities.facilityId,
      facilityName: facilities.name,
      institutionName: pacsArchiveFacilities.institutionName,
    })
    .from(pacsArchiveFacilities)
    .innerJoin(facilities, eq(facilities.id, pacsArchiveFacilities.facilityId))
    .where(eq(pacsArchiveFacilities.archiveId, archiveId));
  const archive: TSyncArchive = {
    id: row.id,
    organisationId: row.organisationId,
    name: row.name,
    defaultFacilityId: row.defaultFacilityId,
    facilities: served,
  };
  return { row, archive };
}

function failureText(error: unknown): string | null {
  if (error instanceof ArchiveError || error instanceof MalformedDicomJson)
    return error.message.slice(0, 500);
  return null;
}

/**
 * One pass; archive failures (unreachable, refused, malformed) are recorded on the archive and
 * answered as ok: false, anything else (our own database) is thrown for the job to retry.
 */
export async function syncArchive(
  deps: { db: TDb; box: SecretBox; now?: () => Date },
  archiveId: string,
  signal?: AbortSignal,
): Promise<TSyncPass | null> {
  const loaded = await loadSyncArchive(deps.db, archiveId);
  if (!loaded) return null;
  const { row, archive } = loaded;
  const pass: TSyncPass = {
    archiveId,
    organisationId: row.organisationId,
    name: row.name,
    ok: true,
    error: null,
    added: 0,
    updated: 0,
    deleted: 0,
    skipped: [],
    changedStudyIds: [],
  };
  if (!row.enabled) return pass;
  const now = deps.now?.() ?? new Date();
  const context: TPassContext = {
    db: deps.db,
    archive,
    connection: connectionOf(row, deps.box),
    signal,
    pass,
  };
  let reconciled = false;
  try {
    if (row.kind === 'orthanc') {
      let cursor = row.changesCursor;
      // First contact starts at the end of the change log; the window below brings the last days.
      if (cursor === null) cursor = await orthancLastChange(context.connection, signal);
      await orthancPass(context, cursor);
      if (row.polledUntil === null || now.getTime() - row.polledUntil.getTime() > RECONCILE_MS) {
        await windowPass(context, new Date(now.getTime() - BACKFILL_DAYS * 86_400_000), now);
        reconciled = true;
      }
    } else {
      const from = row.polledUntil
        ? new Date(row.polledUntil.getTime() - OVERLAP_DAYS * 86_400_000)
        : new Date(now.getTime() - BACKFILL_DAYS * 86_400_000);
      await windowPass(context, from, now);
      reconciled = true;
    }
  } catch (error) {
    const text = failureText(error);
    if (text === null) throw error;
    pass.ok = false;
    pass.error = text;
  }
  await deps.db
    .update(pacsArchives)
    .set(
      pass.ok
        ? {
            lastSyncAt: now,
            lastSuccessAt: now,
            failureCount: 0,
            lastError:
              pass.skipped.length > 0
                ? `Skipped: ${pass.skipped.slice(0, 3).join('; ')}`.slice(0, 1_000)
                : null,
            ...(reconciled ? { polledUntil: now } : {}),
          }
        : {
            lastSyncAt: now,
            lastError: pass.error,
            lastErrorAt: now,
            failureCount: sql`${pacsArchives.failureCount} + 1`,
          },
    )
    .where(eq(pacsArchives.id, archiveId));
  return pass;
}
