import { ZActiveRadiologistList, ZActiveRadiologistsQuery } from '@ris/domain';
import { and, asc, eq, exists, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { radiologistDetails, userFacilities, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { containsFolded, folded } from '../../db/text-search.ts';

const security = [{ bearerAuth: [] }];
const tags = ['radiologists'];

/**
 * GET /radiologist/active: the assignment picker. Active RADIOLOGIST users of the caller's
 * organisation whose facilities intersect the caller's (or the given ones). Referring physicians
 * may not list staff (403).
 */
export const radiologistRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/radiologist/active',
    {
      schema: {
        tags,
        security,
        summary: 'Active radiologists for the assignment picker',
        querystring: ZActiveRadiologistsQuery,
        response: { 200: ZActiveRadiologistList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const query = request.query;
      if (scope.principal.role === 'REFERRING_PHYSICIAN') {
        throw new AppError('FORBIDDEN', 'You may not list radiologists');
      }
      if (query.organisation_id && query.organisation_id !== scope.organisationId) {
        throw new AppError('NOT_FOUND', 'organisation_id: organisation not found', {
          field: 'organisation_id',
        });
      }
      const outside = query.facility_ids.filter((id) => !scope.facilityIds.includes(id));
      if (outside.length > 0) {
        throw new AppError('NOT_FOUND', `facility_ids: facilities not found: ${outside.join(', ')}`, {
          field: 'facility_ids',
          ids: outside,
        });
      }
      const facilityIds = query.facility_ids.length > 0 ? query.facility_ids : scope.facilityIds;
      if (facilityIds.length === 0) return [];
      const conditions: SQL[] = [
        eq(users.organisationId, scope.organisationId),
        eq(users.role, 'RADIOLOGIST'),
        eq(users.status, 'ACTIVE'),
        exists(
          db
            .select({ one: sql`1` })
            .from(userFacilities)
            .where(and(eq(userFacilities.userId, users.id), inArray(userFacilities.facilityId, facilityIds))),
        ),
      ];
      if (query.search) {
        conditions.push(
          containsFolded(
            folded(
              sql`${users.displayName} || ' ' || ${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.email}`,
            ),
            query.search,
          ),
        );
      }
      const rows = await db
        .select({ user: users, userType: radiologistDetails.userType })
        .from(users)
        .leftJoin(radiologistDetails, eq(radiologistDetails.userId, users.id))
        .where(and(...conditions))
        .orderBy(asc(folded(users.displayName)), asc(users.id))
        .limit(500);
      const links =
        rows.length === 0
          ? []
          : await db
              .select()
              .from(userFacilities)
              .where(
                and(
                  inArray(
                    userFacilities.userId,
                    rows.map((row) => row.user.id),
                  ),
                  inArray(userFacilities.facilityId, scope.facilityIds),
                ),
              );
      return rows.map(({ user, userType }) => ({
        id: user.id,
        display_name: user.displayName,
        first_name: user.firstName,
        last_name: user.lastName,
        email: user.email,
        user_type: userType ?? 'RADIOLOGIST',
        facility_fks: links.filter((link) => link.userId === user.id).map((link) => link.facilityId),
      }));
    },
  );
};
