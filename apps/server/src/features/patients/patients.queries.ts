import { paginate, type ZPatientsQuery } from '@ris/domain';
import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { hideDeletedStudies, visibleStudies } from '../../access/studies-scope.ts';
import { inScopeFacilities, type TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { patients, studies } from '../../db/schema/index.ts';
import { containsFolded, folded } from '../../db/text-search.ts';
import { AppError } from '../../http/app-error.ts';
import { selectWorklistRows } from '../studies/study.queries.ts';
import type { TPatientRow } from './patients.presenter.ts';

/**
 * A patient record is seen by staff of its organisation who work at its facility; referring
 * physicians see the studies they referred, never patient records.
 */
function inScope(scope: TScope): SQL | undefined {
  if (scope.principal.role === 'REFERRING_PHYSICIAN') return sql`false`;
  return and(
    eq(patients.organisationId, scope.organisationId),
    inScopeFacilities(scope, patients.facilityId),
  );
}

/** facility_fks the caller named that are not theirs: 404 naming the field (they do not exist for them). */
export function assertFacilitiesInScope(scope: TScope, facilityIds: readonly string[], field: string): void {
  const outside = facilityIds.filter((id) => !scope.facilityIds.includes(id));
  if (outside.length > 0) {
    throw new AppError('NOT_FOUND', `${field}: facilities not found: ${outside.join(', ')}`, {
      field,
      ids: outside,
    });
  }
}

/** GET /user/patients: live records (not merged away) of the caller's facilities, by name. */
export async function listPatients(db: TDbOrTx, scope: TScope, query: z.infer<typeof ZPatientsQuery>) {
  const facilityIds = query.facility_fks;
  assertFacilitiesInScope(scope, facilityIds, 'facility_fks');
  const where = and(
    inScope(scope),
    facilityIds.length > 0 ? inArray(patients.facilityId, facilityIds) : undefined,
    isNull(patients.mergedIntoId),
    query.search ? containsFolded(patients.searchText, query.search) : undefined,
  );
  const [totalRow] = await db.select({ total: count() }).from(patients).where(where);
  const rows = await db
    .select()
    .from(patients)
    .where(where)
    .orderBy(asc(folded(patients.name)), asc(patients.id))
    .limit(query.limit)
    .offset(query.offset);
  return { pagination: paginate(totalRow?.total ?? 0, query.limit, query.offset), rows };
}

/**
 * The record, if the caller may see it (else 404, also for another organisation's). `forUpdate`
 * locks the row until the transaction ends.
 */
export async function requireScopedPatient(
  db: TDbOrTx,
  scope: TScope,
  id: string,
  options: { forUpdate?: boolean; field?: string } = {},
): Promise<TPatientRow> {
  const query = db
    .select()
    .from(patients)
    .where(and(eq(patients.id, id), inScope(scope)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) {
    if (!options.field) throw AppError.notFound('Patient');
    throw new AppError('NOT_FOUND', `${options.field}: patient not found`, { field: options.field });
  }
  return row;
}

/** Locks the records the caller may see among `ids`, in id order (concurrent merges cannot deadlock). */
export async function lockScopedPatients(tx: TDbOrTx, scope: TScope, ids: string[]): Promise<void> {
  await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(inArray(patients.id, ids), inScope(scope)))
    .orderBy(asc(patients.id))
    .for('update');
}

/** A record merged away cannot change: its studies live on the record it was merged into (409). */
export function assertLive(patient: TPatientRow, field: string): void {
  if (patient.mergedIntoId !== null) {
    throw new AppError('CONFLICT', `${field}: this record was merged into another record`, {
      field,
      merged_into_fk: patient.mergedIntoId,
    });
  }
}

/** The record a merged one now lives on (merges keep pointers one step long), or the record itself. */
export async function keptRecordOf(db: TDbOrTx, patient: TPatientRow): Promise<TPatientRow> {
  if (patient.mergedIntoId === null) return patient;
  const [kept] = await db.select().from(patients).where(eq(patients.id, patient.mergedIntoId));
  return kept ?? patient;
}

/**
 * GET /user/patient/{id}/studies: the record's studies the caller may see as on the worklist
 * (visibleStudies; deleted ones for admins only), newest first.
 */
export async function listPatientStudies(
  db: TDbOrTx,
  scope: TScope,
  patientId: string,
  page: { limit: number; offset: number },
) {
  const where = and(
    eq(studies.patientId, patientId),
    visibleStudies(scope),
    hideDeletedStudies(scope.principal),
  );
  const [totalRow] = await db.select({ total: count() }).from(studies).where(where);
  const rows = await selectWorklistRows(db)
    .where(where)
    .orderBy(desc(sql`coalesce(${studies.studyDatetime}, ${studies.createdAt})`), desc(studies.id))
    .limit(page.limit)
    .offset(page.offset);
  return { pagination: paginate(totalRow?.total ?? 0, page.limit, page.offset), rows };
}
