import { ZOrganisationDetails, ZUuid } from '@ris/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { facilities, organisations } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { presentFacility } from '../users/users.presenter.ts';

export const organisationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/user/organisation/details/:id',
    {
      schema: {
        tags: ['organisations'],
        security: [{ bearerAuth: [] }],
        summary: "The caller's organisation with the facilities they may work in",
        params: z.object({ id: ZUuid }),
        response: { 200: ZOrganisationDetails, ...ZErrorResponses },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      // Only one's own organisation exists for a caller; any other id is simply not found.
      if (principal.organisationId !== request.params.id) throw AppError.notFound('Organisation');
      const scope = await loadScope(db, principal);
      const [organisation] = await db
        .select()
        .from(organisations)
        .where(eq(organisations.id, scope.organisationId));
      if (!organisation) throw AppError.notFound('Organisation');
      const rows =
        scope.facilityIds.length === 0
          ? []
          : await db
              .select()
              .from(facilities)
              .where(
                and(
                  eq(facilities.organisationId, scope.organisationId),
                  inArray(facilities.id, scope.facilityIds),
                ),
              )
              .orderBy(asc(facilities.name));
      return {
        id: organisation.id,
        name: organisation.name,
        status: organisation.status,
        report_style: organisation.reportStyle === null ? null : JSON.stringify(organisation.reportStyle),
        all_facilities: rows.map(presentFacility),
        child_facility_ids: rows.filter((row) => row.parentFacilityId !== null).map((row) => row.id),
      };
    },
  );
};
