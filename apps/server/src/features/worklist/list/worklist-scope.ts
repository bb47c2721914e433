import { loadScope, type TScope } from '../../../access/scope.ts';
import type { TPrincipal } from '../../../auth/principal.ts';
import type { TDbOrTx } from '../../../db/client.ts';

/**
 * The caller's scope as the worklist needs it. Admins see their whole organisation and referring
 * physicians the studies they referred (visibleStudies uses no facility list for either), so their
 * facility list is loaded only when facility_ids must be checked against it; staff always need it.
 * Skipping the query changes no answer: it saves a round trip on the busiest endpoints.
 */
export async function worklistScope(
  db: TDbOrTx,
  principal: TPrincipal,
  filteredFacilityIds: readonly string[],
): Promise<TScope> {
  const { organisationId, role } = principal;
  if (organisationId && role) {
    if (role === 'REFERRING_PHYSICIAN') {
      return { principal, organisationId, allFacilities: false, facilityIds: [] };
    }
    if (role === 'ADMIN' && filteredFacilityIds.length === 0) {
      return { principal, organisationId, allFacilities: true, facilityIds: [] };
    }
  }
  return loadScope(db, principal);
}
