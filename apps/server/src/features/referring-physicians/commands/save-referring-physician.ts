// POST /user/referring-physician: create one (no id) or change one (id), with the facilities they
// refer to, in one transaction, audited.
import type { TSaveReferringPhysicianBody } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TRequestOrigin } from '../../../auth/audit.ts';
import type { TScope } from '../../../access/scope.ts';
import type { TTx } from '../../../db/client.ts';
import { referringPhysicianFacilities, referringPhysicians } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { assertFacilitiesInScope } from '../../patients/patients.queries.ts';
import { physicianFacts } from '../referring-physicians.presenter.ts';
import { authorizeReferringPhysician } from '../referring-physicians.policy.ts';
import { requireVisiblePhysician } from '../referring-physicians.queries.ts';
import { recordPhysicianEvent } from './physician-audit.ts';

type TBody = Omit<TSaveReferringPhysicianBody, 'facility_fks'> & { facility_fks?: string[] | undefined };

/**
 * The facilities to store, or undefined to keep them. Each must be one of the caller's (else 404
 * naming facility_fks: another organisation's do not exist for them). Only an admin makes a
 * physician organisation-wide (no facilities); others' new physicians refer to their facilities.
 */
function facilitiesToStore(
  scope: TScope,
  given: string[] | undefined,
  creating: boolean,
): string[] | undefined {
  const ids = given === undefined ? undefined : [...new Set(given)];
  if (ids !== undefined) assertFacilitiesInScope(scope, ids, 'facility_fks');
  if (scope.allFacilities) return ids ?? (creating ? [] : undefined);
  if (ids === undefined) return creating ? facilitiesOrRefuse(scope.facilityIds) : undefined;
  return facilitiesOrRefuse(ids);
}

function facilitiesOrRefuse(ids: string[]): string[] {
  if (ids.length === 0) {
    throw new AppError(
      'FORBIDDEN',
      'facility_fks: only an administrator may make a referring physician organisation-wide',
      {
        field: 'facility_fks',
      },
    );
  }
  return ids;
}

async function storeFacilities(tx: TTx, physicianId: string, facilityIds: string[]): Promise<void> {
  await tx
    .delete(referringPhysicianFacilities)
    .where(eq(referringPhysicianFacilities.referringPhysicianId, physicianId));
  if (facilityIds.length === 0) return;
  await tx
    .insert(referringPhysicianFacilities)
    .values(facilityIds.map((facilityId) => ({ referringPhysicianId: physicianId, facilityId })));
}

export async function saveReferringPhysician(
  tx: TTx,
  input: { scope: TScope; body: TBody; origin: TRequestOrigin },
): Promise<{ id: string; created: boolean }> {
  const { scope, body, origin } = input;
  if (body.id === undefined) {
    authorizeReferringPhysician(scope, 'create');
    const facilityIds = facilitiesToStore(scope, body.facility_fks, true) ?? [];
    const [row] = await tx
      .insert(referringPhysicians)
      .values({
        organisationId: scope.organisationId,
        name: body.name ?? '',
        email: body.email ?? null,
        phone: body.phone ?? null,
        registrationNumber: body.registration_number ?? null,
        status: body.status ?? 'ACTIVE',
      })
      .returning();
    if (!row) throw new Error('referring physician insert returned nothing');
    await storeFacilities(tx, row.id, facilityIds);
    await recordPhysicianEvent(tx, {
      action: 'referring_physician.created',
      scope,
      physicianId: row.id,
      origin,
      data: { name: row.name, facility_ids: facilityIds },
    });
    return { id: row.id, created: true };
  }

  const before = await requireVisiblePhysician(tx, scope, body.id, { forUpdate: true, field: 'id' });
  authorizeReferringPhysician(scope, 'edit', physicianFacts(before));
  const facilityIds = facilitiesToStore(scope, body.facility_fks, false);
  const changes = Object.fromEntries(
    Object.entries({
      name: body.name,
      email: body.email,
      phone: body.phone,
      registrationNumber: body.registration_number,
      status: body.status,
    }).filter(([, value]) => value !== undefined),
  );
  if (Object.keys(changes).length > 0) {
    await tx.update(referringPhysicians).set(changes).where(eq(referringPhysicians.id, before.physician.id));
  }
  if (facilityIds !== undefined) await storeFacilities(tx, before.physician.id, facilityIds);
  await recordPhysicianEvent(tx, {
    action: 'referring_physician.updated',
    scope,
    physicianId: before.physician.id,
    origin,
    data: {
      changed: Object.keys(changes),
      before: {
        name: before.physician.name,
        email: before.physician.email,
        phone: before.physician.phone,
        registration_number: before.physician.registrationNumber,
        status: before.physician.status,
        facility_ids: before.facilityIds,
      },
      ...(facilityIds !== undefined ? { facility_ids: facilityIds } : {}),
    },
  });
  return { id: before.physician.id, created: false };
}
