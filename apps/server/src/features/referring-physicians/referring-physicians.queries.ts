import { paginate, type ZReferringPhysicianListQuery } from '@ris/domain';
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { oneOf } from '../../db/one-of.ts';
import { referringPhysicians, users } from '../../db/schema/index.ts';
import { containsFolded, folded } from '../../db/text-search.ts';
import { AppError } from '../../http/app-error.ts';
import { assertFacilitiesInScope } from '../patients/patients.queries.ts';
import type { TPhysicianRow } from './referring-physicians.presenter.ts';

/** A referring physician of the caller's organisation (else 404 naming the field). */
export async function requireReferringPhysician(db: TDbOrTx, organisationId: string, id: string) {
  const [physician] = await db
    .select({ id: referringPhysicians.id, name: referringPhysicians.name })
    .from(referringPhysicians)
    .where(and(eq(referringPhysicians.id, id), eq(referringPhysicians.organisationId, organisationId)));
  if (!physician) {
    throw new AppError('NOT_FOUND', 'referring_physician_fk: referring physician not found', {
      field: 'referring_physician_fk',
    });
  }
  return physician;
}

/** The physician refers to one of these facilities, or to the whole organisation (no facility rows). */
function refersToAnyOf(facilityIds: readonly string[]): SQL {
  const ids = facilityIds.length > 0 ? facilityIds : ['00000000-0000-0000-0000-000000000000'];
  return sql`(not exists (select 1 from referring_physician_facilities rpf
      where rpf.referring_physician_id = ${referringPhysicians.id})
    or exists (select 1 from referring_physician_facilities rpf
      where rpf.referring_physician_id = ${referringPhysicians.id} and ${oneOf('rpf.facility_id', ids, 'uuid')}))`;
}

/**
 * The physicians a caller sees: those of their organisation; staff other than admins only those
 * referring to one of their facilities or to the whole organisation; referring physicians none.
 */
function visiblePhysicians(scope: TScope): SQL | undefined {
  if (scope.principal.role === 'REFERRING_PHYSICIAN') return sql`false`;
  return and(
    eq(referringPhysicians.organisationId, scope.organisationId),
    scope.allFacilities ? undefined : refersToAnyOf(scope.facilityIds),
  );
}

const physicianColumns = {
  physician: referringPhysicians,
  facilityIds: sql<string[]>`coalesce((select array_agg(rpf.facility_id::text order by rpf.facility_id)
    from referring_physician_facilities rpf where rpf.referring_physician_id = ${referringPhysicians.id}),
    '{}'::text[])`,
  accountStatus: users.status,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
};

type TSelected = {
  physician: typeof referringPhysicians.$inferSelect;
  facilityIds: string[];
  accountStatus: 'ACTIVE' | 'INACTIVE' | null;
  hasPassword: boolean;
};

function toRow(selected: TSelected): TPhysicianRow {
  return {
    physician: selected.physician,
    facilityIds: selected.facilityIds,
    account:
      selected.accountStatus === null
        ? null
        : { status: selected.accountStatus, hasPassword: selected.hasPassword },
  };
}

function selectPhysicians(db: TDbOrTx) {
  return db
    .select(physicianColumns)
    .from(referringPhysicians)
    .leftJoin(users, eq(users.id, referringPhysicians.userId));
}

/** GET /user/referring-physicians: searched, filtered by facility and status, by name. */
export async function listReferringPhysicians(
  db: TDbOrTx,
  scope: TScope,
  query: z.infer<typeof ZReferringPhysicianListQuery>,
) {
  assertFacilitiesInScope(scope, query.facility_fks, 'facility_fks');
  const where = and(
    visiblePhysicians(scope),
    query.facility_fks.length > 0 ? refersToAnyOf(query.facility_fks) : undefined,
    query.status === 'ALL' ? undefined : eq(referringPhysicians.status, query.status),
    query.search ? containsFolded(referringPhysicians.searchText, query.search) : undefined,
  );
  const [totalRow] = await db.select({ total: count() }).from(referringPhysicians).where(where);
  const rows = await selectPhysicians(db)
    .where(where)
    .orderBy(asc(folded(referringPhysicians.name)), asc(referringPhysicians.id))
    .limit(query.limit)
    .offset(query.offset);
  return { pagination: paginate(totalRow?.total ?? 0, query.limit, query.offset), rows: rows.map(toRow) };
}

/**
 * A physician the caller sees, with its facilities and account (else 404 naming `field`).
 * `forUpdate` locks the physician's row until the transaction ends.
 */
export async function requireVisiblePhysician(
  db: TDbOrTx,
  scope: TScope,
  id: string,
  options: { forUpdate?: boolean; field?: string } = {},
): Promise<TPhysicianRow> {
  if (options.forUpdate) {
    await db
      .select({ id: referringPhysicians.id })
      .from(referringPhysicians)
      .where(and(eq(referringPhysicians.id, id), visiblePhysicians(scope)))
      .for('update');
  }
  const [row] = await selectPhysicians(db)
    .where(and(eq(referringPhysicians.id, id), visiblePhysicians(scope)))
    .limit(1);
  if (!row) {
    if (!options.field) throw AppError.notFound('Referring physician');
    throw new AppError('NOT_FOUND', `${options.field}: referring physician not found`, {
      field: options.field,
    });
  }
  return toRow(row);
}
