// The worklist's filters that name records (facility_ids, by_user_ids) checked against the caller's
// scope before any study is read: an id the caller may not filter by is answered 404 naming the field.
import { and, eq, inArray } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TDbOrTx } from '../../../db/client.ts';
import { facilities, users } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';

/** facility_ids must all be facilities the caller may filter by (else 404 naming facility_ids). */
export async function checkFacilityIds(db: TDbOrTx, scope: TScope, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  let allowed: Set<string>;
  if (scope.principal.role === 'REFERRING_PHYSICIAN') {
    // Referrers see the studies they referred in any facility of the organisation.
    const rows = await db
      .select({ id: facilities.id })
      .from(facilities)
      .where(and(eq(facilities.organisationId, scope.organisationId), inArray(facilities.id, ids)));
    allowed = new Set(rows.map((row) => row.id));
  } else {
    allowed = new Set(scope.facilityIds);
  }
  if (ids.some((id) => !allowed.has(id))) {
    throw new AppError('NOT_FOUND', 'facility_ids: facility not found', {
      fields: [{ field: 'facility_ids', in: 'querystring', message: 'facility not found' }],
    });
  }
}

/** by_user_ids must all be users of the caller's organisation (else 404 naming by_user_ids). */
export async function checkUserIds(db: TDbOrTx, scope: TScope, ids: string[]): Promise<void> {
  const others = ids.filter((id) => id !== scope.principal.userId);
  if (others.length === 0) return;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organisationId, scope.organisationId), inArray(users.id, others)));
  if (rows.length !== others.length) {
    throw new AppError('NOT_FOUND', 'by_user_ids: user not found', {
      fields: [{ field: 'by_user_ids', in: 'querystring', message: 'user not found' }],
    });
  }
}
