// Facility use cases (one transaction each): create, update, letterhead images on and off.
import {
  LETTERHEAD_MEDIA_TYPES,
  MAX_LETTERHEAD_BYTES,
  type TCreateFacilityBody,
  type TUpdateFacilityBody,
} from '@ris/domain';
import { and, eq, ne } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx, TTx } from '../../db/client.ts';
import { facilities } from '../../db/schema/index.ts';
import type { BlobStore } from '../../files/blob-store.ts';
import { storeFile } from '../../files/stored-files.ts';
import { AppError } from '../../http/app-error.ts';
import { sqlState } from '../../http/database-errors.ts';
import { authorizeFacility, updateActionOf } from './facility.policy.ts';
import type { TFacilityRow } from './facility.presenter.ts';

/**
 * The facility if the caller sees it: of their organisation, and (unless admin) one of their
 * facilities. Null otherwise (→ 404).
 */
export async function findVisibleFacility(
  db: TDbOrTx,
  scope: TScope,
  facilityId: string,
  options: { lock?: boolean } = {},
): Promise<TFacilityRow | null> {
  if (!scope.allFacilities && !scope.facilityIds.includes(facilityId)) return null;
  const query = db
    .select()
    .from(facilities)
    .where(and(eq(facilities.id, facilityId), eq(facilities.organisationId, scope.organisationId)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function requireVisibleFacility(
  db: TDbOrTx,
  scope: TScope,
  facilityId: string,
  options: { lock?: boolean } = {},
): Promise<TFacilityRow> {
  const row = await findVisibleFacility(db, scope, facilityId, options);
  if (!row) throw AppError.notFound('Facility');
  return row;
}

const codeTaken = (code: string) =>
  new AppError('CONFLICT', `code: a facility with the code "${code}" already exists in this organisation`, {
    field: 'code',
  });

async function assertCodeFree(tx: TTx, organisationId: string, code: string, exceptId?: string) {
  const conditions = [eq(facilities.organisationId, organisationId), eq(facilities.code, code)];
  if (exceptId) conditions.push(ne(facilities.id, exceptId));
  const [taken] = await tx
    .select({ id: facilities.id })
    .from(facilities)
    .where(and(...conditions));
  if (taken) throw codeTaken(code);
}

/** A parent must be another facility of the organisation, and not one below this facility. */
async function assertParent(tx: TTx, organisationId: string, parentId: string, childId?: string) {
  const invalid = (reason: string) =>
    new AppError('VALIDATION_FAILED', `parent_facility_fk: ${reason}`, { field: 'parent_facility_fk' });
  if (parentId === childId) throw invalid('a facility cannot be its own parent');
  const seen = new Set<string>();
  for (let current: string | null = parentId; current;) {
    if (current === childId) throw invalid('this would make the facility its own ancestor');
    if (seen.has(current)) break;
    seen.add(current);
    const [row] = await tx
      .select({ parent: facilities.parentFacilityId })
      .from(facilities)
      .where(and(eq(facilities.id, current), eq(facilities.organisationId, organisationId)));
    if (!row) throw invalid('no such facility in this organisation');
    current = row.parent;
  }
}

/** Runs a write; a unique violation on the code (a concurrent create) answers the same 409. */
async function withCodeGuard<T>(code: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (code !== undefined && sqlState(error) === '23505') throw codeTaken(code);
    throw error;
  }
}

/** POST /user/facility (administrators): a facility of the caller's organisation, letterhead off. */
export async function createFacility(
  tx: TTx,
  scope: TScope,
  body: TCreateFacilityBody,
): Promise<TFacilityRow> {
  authorizeFacility(scope.principal, 'create');
  await assertCodeFree(tx, scope.organisationId, body.code);
  if (body.parent_facility_fk) await assertParent(tx, scope.organisationId, body.parent_facility_fk);
  const [row] = await withCodeGuard(body.code, () =>
    tx
      .insert(facilities)
      .values({
        organisationId: scope.organisationId,
        name: body.name,
        code: body.code,
        address: body.address ?? null,
        phone: body.phone ?? null,
        email: body.email ?? null,
        timeZone: body.time_zone ?? null,
        localNodeUrl: body.local_node_url ?? null,
        parentFacilityId: body.parent_facility_fk ?? null,
      })
      .returning(),
  );
  if (!row) throw new Error('facility insert returned nothing');
  return row;
}

/** PUT /user/facility/{id}: the fields given change (status and parent: administrators only). */
export async function updateFacility(
  tx: TTx,
  scope: TScope,
  facilityId: string,
  body: TUpdateFacilityBody,
): Promise<TFacilityRow> {
  const facility = await requireVisibleFacility(tx, scope, facilityId, { lock: true });
  authorizeFacility(scope.principal, updateActionOf(body));
  if (body.code !== undefined) await assertCodeFree(tx, scope.organisationId, body.code, facility.id);
  if (body.parent_facility_fk)
    await assertParent(tx, scope.organisationId, body.parent_facility_fk, facility.id);
  const [row] = await withCodeGuard(body.code, () =>
    tx
      .update(facilities)
      .set({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.code !== undefined ? { code: body.code } : {}),
        ...(body.address !== undefined ? { address: body.address } : {}),
        ...(body.phone !== undefined ? { phone: body.phone } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.time_zone !== undefined ? { timeZone: body.time_zone } : {}),
        ...(body.local_node_url !== undefined ? { localNodeUrl: body.local_node_url } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
        ...(body.parent_facility_fk !== undefined ? { parentFacilityId: body.parent_facility_fk } : {}),
      })
      .where(eq(facilities.id, facility.id))
      .returning(),
  );
  return row ?? facility;
}

export type TLetterheadUpload = {
  enable?: boolean | undefined;
  header?: { filename: string; data: Buffer } | undefined;
  footer?: { filename: string; data: Buffer } | undefined;
};

/**
 * POST /user/facility/{id}/letterhead: new header and/or footer images (checked by content and
 * size again as they are stored) and, when given, the enable flag. Enabling without images is
 * allowed: documents then keep the letterhead space blank.
 */
export async function setLetterhead(
  tx: TTx,
  blobs: BlobStore,
  scope: TScope,
  facilityId: string,
  upload: TLetterheadUpload,
): Promise<TFacilityRow> {
  const facility = await requireVisibleFacility(tx, scope, facilityId, { lock: true });
  authorizeFacility(scope.principal, 'letterhead');
  const store = async (file: { filename: string; data: Buffer }) =>
    (
      await storeFile(tx, blobs, {
        data: file.data,
        originalName: file.filename,
        organisationId: scope.organisationId,
        createdBy: scope.principal.userId,
        accept: LETTERHEAD_MEDIA_TYPES,
        maxBytes: MAX_LETTERHEAD_BYTES,
      })
    ).id;
  const [row] = await tx
    .update(facilities)
    .set({
      ...(upload.header ? { letterheadHeaderFileId: await store(upload.header) } : {}),
      ...(upload.footer ? { letterheadFooterFileId: await store(upload.footer) } : {}),
      ...(upload.enable !== undefined ? { letterheadEnabled: upload.enable } : {}),
    })
    .where(eq(facilities.id, facility.id))
    .returning();
  return row ?? facility;
}

/**
 * DELETE /user/facility/{id}/letterhead: removes the header and/or footer image. The enable flag
 * stays as it is (with no images the letterhead space is blank). The stored files are kept, like
 * every stored file that was once part of a record.
 */
export async function deleteLetterhead(
  tx: TTx,
  scope: TScope,
  facilityId: string,
  input: { deleteHeader: boolean; deleteFooter: boolean },
): Promise<TFacilityRow> {
  const facility = await requireVisibleFacility(tx, scope, facilityId, { lock: true });
  authorizeFacility(scope.principal, 'letterhead');
  if (!input.deleteHeader && !input.deleteFooter) {
    throw new AppError('VALIDATION_FAILED', 'delete_header, delete_footer: choose at least one to delete', {
      field: 'delete_header',
    });
  }
  const [row] = await tx
    .update(facilities)
    .set({
      ...(input.deleteHeader ? { letterheadHeaderFileId: null } : {}),
      ...(input.deleteFooter ? { letterheadFooterFileId: null } : {}),
    })
    .where(eq(facilities.id, facility.id))
    .returning();
  return row ?? facility;
}
