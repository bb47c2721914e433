// Reads of the archive configuration, always within one organisation.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { facilities, pacsArchiveFacilities, pacsArchives } from '../../../db/schema/index.ts';

export type TArchiveRow = typeof pacsArchives.$inferSelect;
export type TArchiveFacilityRow = {
  archiveId: string;
  facilityId: string;
  facilityName: string;
  institutionName: string | null;
};
export type TArchiveWithFacilities = { row: TArchiveRow; facilities: TArchiveFacilityRow[] };

/** The archive if it is the organisation's (null otherwise: 404); `lock` holds it for a write. */
export async function findArchive(
  db: TDbOrTx,
  organisationId: string,
  archiveId: string,
  options: { lock?: boolean } = {},
): Promise<TArchiveRow | null> {
  const query = db
    .select()
    .from(pacsArchives)
    .where(and(eq(pacsArchives.id, archiveId), eq(pacsArchives.organisationId, organisationId)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The facilities each archive serves, with their names, by archive id. */
export async function facilitiesOfArchives(
  db: TDbOrTx,
  archiveIds: readonly string[],
): Promise<Map<string, TArchiveFacilityRow[]>> {
  const byArchive = new Map<string, TArchiveFacilityRow[]>();
  if (archiveIds.length === 0) return byArchive;
  const rows = await db
    .select({
      archiveId: pacsArchiveFacilities.archiveId,
      facilityId: pacsArchiveFacilities.facilityId,
      facilityName: facilities.name,
      institutionName: pacsArchiveFacilities.institutionName,
    })
    .from(pacsArchiveFacilities)
    .innerJoin(facilities, eq(facilities.id, pacsArchiveFacilities.facilityId))
    .where(inArray(pacsArchiveFacilities.archiveId, [...archiveIds]))
    .orderBy(asc(facilities.name));
  for (const row of rows) {
    const list = byArchive.get(row.archiveId) ?? [];
    list.push(row);
    byArchive.set(row.archiveId, list);
  }
  return byArchive;
}

/** Every archive of the organisation, by name, with its facilities. */
export async function listArchives(db: TDbOrTx, organisationId: string): Promise<TArchiveWithFacilities[]> {
  const rows = await db
    .select()
    .from(pacsArchives)
    .where(eq(pacsArchives.organisationId, organisationId))
    .orderBy(asc(sql`lower(${pacsArchives.name})`), asc(pacsArchives.createdAt));
  const served = await facilitiesOfArchives(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ row, facilities: served.get(row.id) ?? [] }));
}

/** One archive with its facilities. */
export async function withFacilities(db: TDbOrTx, row: TArchiveRow): Promise<TArchiveWithFacilities> {
  const served = await facilitiesOfArchives(db, [row.id]);
  return { row, facilities: served.get(row.id) ?? [] };
}
