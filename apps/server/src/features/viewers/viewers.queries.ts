import { and, eq, sql } from 'drizzle-orm';
import { hideDeletedStudies, visibleStudies } from '../../access/studies-scope.ts';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { facilities, studies } from '../../db/schema/index.ts';
import type { TStudyLocation } from '../../integrations/pacs/archive-connections.ts';

/**
 * Whether the caller may see a study with this Study Instance UID (a duplicated study shares its
 * original's UID, so any visible one counts). Deleted studies count for admins only, as on the
 * worklist.
 */
export async function isStudyUidVisible(db: TDbOrTx, scope: TScope, studyUid: string): Promise<boolean> {
  const rows = await db
    .select({ id: studies.id })
    .from(studies)
    .where(and(eq(studies.studyUid, studyUid), visibleStudies(scope), hideDeletedStudies(scope.principal)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Where the images of a study the caller may see live (organisation, facility, its archive), by
 * Study Instance UID, or null when the caller may not see it. Of duplicated studies sharing the UID,
 * one that came from an archive comes first.
 */
export async function visibleStudyLocation(
  db: TDbOrTx,
  scope: TScope,
  studyUid: string,
): Promise<(TStudyLocation & { id: string; studyUid: string | null; accessionNumber: string }) | null> {
  const [row] = await db
    .select({
      id: studies.id,
      studyUid: studies.studyUid,
      accessionNumber: studies.accessionNumber,
      organisationId: studies.organisationId,
      facilityId: studies.facilityId,
      pacsArchiveId: studies.pacsArchiveId,
    })
    .from(studies)
    .where(and(eq(studies.studyUid, studyUid), visibleStudies(scope), hideDeletedStudies(scope.principal)))
    .orderBy(sql`${studies.pacsArchiveId} is null`)
    .limit(1);
  return row ?? null;
}

/**
 * The facility's own image node (its OHIF root) and where it listens, or null when it has none.
 */
export async function facilityLocalNode(
  db: TDbOrTx,
  facilityId: string,
): Promise<{ url: string; host: string; port: number } | null> {
  const [row] = await db
    .select({ url: facilities.localNodeUrl })
    .from(facilities)
    .where(eq(facilities.id, facilityId))
    .limit(1);
  if (!row?.url) return null;
  const parsed = new URL(row.url);
  const port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
  return { url: row.url.replace(/\/+$/, ''), host: parsed.hostname, port };
}
