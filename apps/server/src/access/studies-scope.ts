import { isReporter } from '@ris/domain';
import { and, eq, exists, sql, type SQL } from 'drizzle-orm';
import type { TPrincipal } from '../auth/principal.ts';
import type { TDbOrTx } from '../db/client.ts';
import { referringPhysicians, studies } from '../db/schema/index.ts';
import { inScopeFacilities, type TScope } from './scope.ts';

/**
 * The studies (worklist items) a caller may see, as one SQL condition for the WHERE clause of every
 * study query: always within the caller's organisation; staff within their facilities (admins: all
 * of the organisation's); a referring physician only the studies they referred, in any facility.
 */
export function visibleStudies(db: TDbOrTx, scope: TScope): SQL {
  const sameOrganisation = eq(studies.organisationId, scope.organisationId);
  if (scope.principal.role === 'REFERRING_PHYSICIAN') {
    const referredByCaller = exists(
      db
        .select({ one: sql`1` })
        .from(referringPhysicians)
        .where(
          and(
            eq(referringPhysicians.id, studies.referringPhysicianId),
            eq(referringPhysicians.userId, scope.principal.userId),
          ),
        ),
    );
    return and(sameOrganisation, referredByCaller) ?? sameOrganisation;
  }
  if (scope.allFacilities) return sameOrganisation;
  return and(sameOrganisation, inScopeFacilities(scope, studies.facilityId)) ?? sameOrganisation;
}

/**
 * by_user_ids of worklist and status-count queries: a reporter's own id is always added (spec §6),
 * whatever the client sent; other callers' filters are used as given.
 */
export function effectiveByUserIds(principal: TPrincipal, byUserIds: readonly string[] = []): string[] {
  const ids = [...new Set(byUserIds)];
  if (isReporter(principal.role, principal.userType) && !ids.includes(principal.userId))
    ids.push(principal.userId);
  return ids;
}

/** Referring physicians read a study's report only once it is FINAL; staff who see the study read it. */
export function mayReadReportOf(principal: TPrincipal, study: { status: string }): boolean {
  return principal.role !== 'REFERRING_PHYSICIAN' || study.status === 'FINAL';
}
