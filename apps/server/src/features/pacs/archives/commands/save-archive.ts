// Create and change an archive (one transaction each, with its facilities and its audit row). The
// secret is sealed here and never read back out; the sync state is the sync jobs' and stays as is.
import {
  SECRET_GIVEN_AGAIN,
  secretMayFollow,
  type TCreateArchiveBody,
  type TUpdateArchiveBody,
} from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TRequestOrigin } from '../../../../auth/audit.ts';
import type { TTx } from '../../../../db/client.ts';
import { pacsArchiveFacilities, pacsArchives } from '../../../../db/schema/index.ts';
import type { SecretBox } from '../../../../integrations/sealed-secrets.ts';
import { recordArchiveEvent } from '../archive-audit.ts';
import { findArchive, type TArchiveRow } from '../archives.queries.ts';
import { AppError } from '../../../../http/app-error.ts';
import {
  assertNameFree,
  assertOwnFacilities,
  assertAllowedHosts,
  assertSettings,
  invalidField,
  lockOrganisationArchives,
} from './archive-guards.ts';

export type TArchiveWriteContext = {
  actorUserId: string;
  organisationId: string;
  origin: TRequestOrigin;
  box: SecretBox;
  /** PACS_ALLOWED_HOSTS (null: any host). */
  allowedHosts: readonly string[] | null;
};

type TFacilityLink = { facility_id: string; institution_name?: string | null | undefined };

const blankToNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

async function replaceFacilities(tx: TTx, archiveId: string, links: readonly TFacilityLink[]) {
  await tx.delete(pacsArchiveFacilities).where(eq(pacsArchiveFacilities.archiveId, archiveId));
  if (links.length === 0) return;
  await tx.insert(pacsArchiveFacilities).values(
    links.map((link) => ({
      archiveId,
      facilityId: link.facility_id,
      institutionName: blankToNull(link.institution_name),
    })),
  );
}

/** POST /pacs/archives. */
export async function createArchive(
  tx: TTx,
  context: TArchiveWriteContext,
  body: TCreateArchiveBody,
): Promise<TArchiveRow> {
  const { organisationId } = context;
  await lockOrganisationArchives(tx, organisationId);
  await assertNameFree(tx, organisationId, body.name);
  const facilityIds = body.facilities.map((link) => link.facility_id);
  await assertOwnFacilities(tx, organisationId, facilityIds);
  const credentials = body.auth_kind !== 'none';
  const username = body.auth_kind === 'basic' ? blankToNull(body.username) : null;
  const secret = credentials && body.secret ? body.secret : null;
  const orthancUrl = body.orthanc_url ?? null;
  const defaultFacilityId = body.default_facility_id ?? null;
  assertAllowedHosts({ dicomweb_url: body.dicomweb_url, orthanc_url: orthancUrl }, context.allowedHosts);
  assertSettings({
    kind: body.kind,
    orthanc_url: orthancUrl,
    auth_kind: body.auth_kind,
    username,
    has_secret: secret !== null,
    facility_ids: facilityIds,
    default_facility_id: defaultFacilityId,
  });
  const [row] = await tx
    .insert(pacsArchives)
    .values({
      organisationId,
      name: body.name,
      kind: body.kind,
      dicomwebUrl: body.dicomweb_url,
      orthancUrl,
      authKind: body.auth_kind,
      username,
      secretSealed: secret === null ? null : context.box.seal(secret),
      defaultFacilityId,
      enabled: body.enabled,
      pollIntervalSeconds: body.poll_interval_seconds,
    })
    .returning();
  if (!row) throw new Error('archive insert returned nothing');
  await replaceFacilities(tx, row.id, body.facilities);
  await recordArchiveEvent(tx, {
    action: 'pacs_archive.created',
    actorUserId: context.actorUserId,
    organisationId,
    archiveId: row.id,
    origin: context.origin,
    data: { name: row.name, kind: row.kind, dicomweb_url: row.dicomwebUrl, facility_ids: facilityIds },
  });
  return row;
}

/** The organisation's archives, then this one, held for the write (404 when it went meanwhile). */
async function lockArchive(tx: TTx, organisationId: string, archiveId: string): Promise<TArchiveRow> {
  await lockOrganisationArchives(tx, organisationId);
  const row = await findArchive(tx, organisationId, archiveId, { lock: true });
  if (!row) throw AppError.notFound('Archive');
  return row;
}

/** The fields of an update body that differ from the row (for the audit row; the secret by name only). */
function changedFields(row: TArchiveRow, next: Partial<TArchiveRow>, facilitiesGiven: boolean): string[] {
  const names: [keyof TArchiveRow, string][] = [
    ['name', 'name'],
    ['kind', 'kind'],
    ['dicomwebUrl', 'dicomweb_url'],
    ['orthancUrl', 'orthanc_url'],
    ['authKind', 'auth_kind'],
    ['username', 'username'],
    ['secretSealed', 'secret'],
    ['defaultFacilityId', 'default_facility_id'],
    ['enabled', 'enabled'],
    ['pollIntervalSeconds', 'poll_interval_seconds'],
  ];
  const changed = names.filter(([key]) => key in next && next[key] !== row[key]).map(([, name]) => name);
  return facilitiesGiven ? [...changed, 'facilities'] : changed;
}

/** The fields that say which archive is read: changing one resets the sync's resume point. */
const SOURCE_FIELDS: readonly string[] = ['kind', 'dicomweb_url', 'orthanc_url'];

/**
 * PUT /pacs/archives/{id}: the fields given change; the result is checked as a whole (an Orthanc
 * archive keeps its orthanc_url, basic keeps a username and a secret ...). secret: omitted keeps the
 * stored one, '' clears it, text replaces it; auth_kind 'none' clears the credentials.
 */
export async function updateArchive(
  tx: TTx,
  context: TArchiveWriteContext,
  archiveId: string,
  body: TUpdateArchiveBody,
): Promise<TArchiveRow> {
  const { organisationId } = context;
  const row = await lockArchive(tx, organisationId, archiveId);
  if (body.name !== undefined) await assertNameFree(tx, organisationId, body.name, row.id);
  const current = await tx
    .select({ facilityId: pacsArchiveFacilities.facilityId })
    .from(pacsArchiveFacilities)
    .where(eq(pacsArchiveFacilities.archiveId, row.id));
  const facilityIds = body.facilities
    ? body.facilities.map((link) => link.facility_id)
    : current.map((link) => link.facilityId);
  if (body.facilities) await assertOwnFacilities(tx, organisationId, facilityIds);

  const kind = body.kind ?? row.kind;
  const authKind = body.auth_kind ?? row.authKind;
  const orthancUrl = body.orthanc_url !== undefined ? body.orthanc_url : row.orthancUrl;
  const username =
    authKind === 'basic' ? blankToNull(body.username !== undefined ? body.username : row.username) : null;
  const secretSealed =
    authKind === 'none'
      ? null
      : body.secret === undefined
        ? row.secretSealed
        : body.secret === ''
          ? null
          : context.box.seal(body.secret);
  const defaultFacilityId =
    body.default_facility_id !== undefined ? body.default_facility_id : row.defaultFacilityId;
  const dicomwebUrl = body.dicomweb_url ?? row.dicomwebUrl;
  const kept = body.secret === undefined && secretSealed !== null;
  if (kept && !secretMayFollow([row.dicomwebUrl, row.orthancUrl], [dicomwebUrl, orthancUrl])) {
    throw invalidField('secret', SECRET_GIVEN_AGAIN);
  }
  assertAllowedHosts({ dicomweb_url: dicomwebUrl, orthanc_url: orthancUrl }, context.allowedHosts);
  assertSettings({
    kind: kind as TCreateArchiveBody['kind'],
    orthanc_url: orthancUrl,
    auth_kind: authKind as TCreateArchiveBody['auth_kind'],
    username,
    has_secret: secretSealed !== null,
    facility_ids: facilityIds,
    default_facility_id: defaultFacilityId,
  });

  const next = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.dicomweb_url !== undefined ? { dicomwebUrl: body.dicomweb_url } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    ...(body.poll_interval_seconds !== undefined ? { pollIntervalSeconds: body.poll_interval_seconds } : {}),
    kind,
    authKind,
    orthancUrl,
    username,
    secretSealed,
    defaultFacilityId,
  };
  const changed = changedFields(row, next, body.facilities !== undefined);
  // Another archive behind the same record: its /changes sequence numbers and polled window mean
  // nothing there, so the sync starts over (idempotent by study UID, so nothing is duplicated).
  const sourceChanged = changed.some((field) => SOURCE_FIELDS.includes(field));
  const [updated] = await tx
    .update(pacsArchives)
    .set(sourceChanged ? { ...next, changesCursor: null, polledUntil: null } : next)
    .where(eq(pacsArchives.id, row.id))
    .returning();
  if (body.facilities) await replaceFacilities(tx, row.id, body.facilities);
  await recordArchiveEvent(tx, {
    action: 'pacs_archive.updated',
    actorUserId: context.actorUserId,
    organisationId,
    archiveId: row.id,
    origin: context.origin,
    data: { name: updated?.name ?? row.name, changed },
  });
  return updated ?? row;
}

/** DELETE /pacs/archives/{id}: its studies stay (their pacs_archive_id becomes null by the FK). */
export async function deleteArchive(
  tx: TTx,
  context: TArchiveWriteContext,
  archiveId: string,
): Promise<void> {
  const row = await lockArchive(tx, context.organisationId, archiveId);
  await tx.delete(pacsArchives).where(eq(pacsArchives.id, row.id));
  await recordArchiveEvent(tx, {
    action: 'pacs_archive.deleted',
    actorUserId: context.actorUserId,
    organisationId: context.organisationId,
    archiveId: row.id,
    origin: context.origin,
    data: { name: row.name, kind: row.kind, dicomweb_url: row.dicomwebUrl },
  });
}
