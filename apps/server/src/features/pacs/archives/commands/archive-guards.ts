// The checks an archive write makes against the database, each refusing with the field it names.
import { archiveSettingsProblems, type TArchiveSettings } from '@ris/domain';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { TTx } from '../../../../db/client.ts';
import { facilities, organisations, pacsArchives } from '../../../../db/schema/index.ts';
import { AppError } from '../../../../http/app-error.ts';
import { archiveHostAllowed } from '../../../../integrations/pacs/allowed-hosts.ts';

export const invalidField = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${field}: ${message}`, { field });

/**
 * Holds the organisation row until the transaction ends, so two writes of its archives (a name
 * check and its insert) never interleave.
 */
export async function lockOrganisationArchives(tx: TTx, organisationId: string): Promise<void> {
  await tx
    .select({ id: organisations.id })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .for('update');
}

/** 409 when another archive of the organisation has this name (compared case-insensitively). */
export async function assertNameFree(
  tx: TTx,
  organisationId: string,
  name: string,
  exceptId?: string,
): Promise<void> {
  const conditions = [
    eq(pacsArchives.organisationId, organisationId),
    sql`lower(${pacsArchives.name}) = lower(${name})`,
  ];
  if (exceptId) conditions.push(ne(pacsArchives.id, exceptId));
  const [taken] = await tx
    .select({ id: pacsArchives.id })
    .from(pacsArchives)
    .where(and(...conditions))
    .limit(1);
  if (taken)
    throw new AppError('CONFLICT', `name: an archive named "${name}" already exists in this organisation`, {
      field: 'name',
    });
}

/** 400 naming facilities unless every id is a facility of the organisation. */
export async function assertOwnFacilities(
  tx: TTx,
  organisationId: string,
  facilityIds: readonly string[],
): Promise<void> {
  if (facilityIds.length === 0) return;
  const found = await tx
    .select({ id: facilities.id })
    .from(facilities)
    .where(and(eq(facilities.organisationId, organisationId), inArray(facilities.id, [...facilityIds])));
  if (found.length !== new Set(facilityIds).size)
    throw invalidField('facilities', 'each must be a facility of your organisation');
}

/** 400 naming the first field a rule between fields refuses (archiveSettingsProblems). */
export function assertSettings(settings: TArchiveSettings): void {
  const [problem] = archiveSettingsProblems(settings);
  if (problem) throw invalidField(problem.field, problem.message);
}

/** 400 naming the URL field whose host PACS_ALLOWED_HOSTS does not allow. */
export function assertAllowedHosts(
  urls: Readonly<Record<'dicomweb_url' | 'orthanc_url', string | null>>,
  allowed: readonly string[] | null,
): void {
  for (const [field, url] of Object.entries(urls)) {
    if (url !== null && !archiveHostAllowed(url, allowed))
      throw invalidField(field, 'names a host this server may not call (PACS_ALLOWED_HOSTS)');
  }
}
