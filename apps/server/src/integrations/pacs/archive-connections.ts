// Which archive holds a study, and how to call it: the organisation's configured archives (sealed
// credentials opened here), else the PACS_DICOMWEB_URL default of the server.
import { and, asc, eq } from 'drizzle-orm';
import type { SecretBox } from '../sealed-secrets.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { pacsArchiveFacilities, pacsArchives } from '../../db/schema/index.ts';
import { authorizationOf, type TArchiveConnection, type TPacsArchiveKind } from './archive-client.ts';

export type TArchiveRow = typeof pacsArchives.$inferSelect;

/** The connection of an archive row (its secret opened with the server's box). */
export function connectionOf(row: TArchiveRow, box: SecretBox): TArchiveConnection {
  const secret = row.secretSealed ? box.open(row.secretSealed) : null;
  return {
    id: row.id,
    organisationId: row.organisationId,
    name: row.name,
    kind: row.kind as TPacsArchiveKind,
    dicomwebUrl: row.dicomwebUrl.replace(/\/+$/, ''),
    orthancUrl: row.orthancUrl ? row.orthancUrl.replace(/\/+$/, '') : null,
    authorization: authorizationOf(row.authKind, row.username, secret),
  };
}

/** The server-wide default archive (PACS_DICOMWEB_URL), when set. */
export function defaultConnection(dicomwebUrl: string | null): TArchiveConnection | null {
  if (!dicomwebUrl) return null;
  return {
    id: null,
    organisationId: null,
    name: 'PACS_DICOMWEB_URL',
    kind: 'dicomweb',
    dicomwebUrl: dicomwebUrl.replace(/\/+$/, ''),
    orthancUrl: null,
    authorization: null,
  };
}

/** An archive of the organisation, by id (null when it is another organisation's or absent). */
export async function loadArchiveRow(
  db: TDbOrTx,
  organisationId: string,
  archiveId: string,
): Promise<TArchiveRow | null> {
  const [row] = await db
    .select()
    .from(pacsArchives)
    .where(and(eq(pacsArchives.id, archiveId), eq(pacsArchives.organisationId, organisationId)))
    .limit(1);
  return row ?? null;
}

export type TStudyLocation = { organisationId: string; facilityId: string; pacsArchiveId: string | null };

/**
 * The archive a study's images are read from: the archive it came from; else the first enabled
 * archive of its organisation serving its facility; else the server default; else null.
 */
export async function archiveOfStudy(
  db: TDbOrTx,
  box: SecretBox,
  defaultDicomwebUrl: string | null,
  study: TStudyLocation,
): Promise<TArchiveConnection | null> {
  if (study.pacsArchiveId) {
    const row = await loadArchiveRow(db, study.organisationId, study.pacsArchiveId);
    if (row) return connectionOf(row, box);
  }
  const [serving] = await db
    .select({ archive: pacsArchives })
    .from(pacsArchives)
    .innerJoin(pacsArchiveFacilities, eq(pacsArchiveFacilities.archiveId, pacsArchives.id))
    .where(
      and(
        eq(pacsArchives.organisationId, study.organisationId),
        eq(pacsArchives.enabled, true),
        eq(pacsArchiveFacilities.facilityId, study.facilityId),
      ),
    )
    .orderBy(asc(pacsArchives.createdAt))
    .limit(1);
  if (serving) return connectionOf(serving.archive, box);
  return defaultConnection(defaultDicomwebUrl);
}
