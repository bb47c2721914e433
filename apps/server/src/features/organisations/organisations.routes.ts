import { ZOrganisationDetails, ZUpdateOrganisationBody, ZUuid, type TOrganisationDetails } from '@ris/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope, type TScope } from '../../access/scope.ts';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { facilities, organisations } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { presentFacility } from '../users/users.presenter.ts';
import { updateOrganisation } from './update-organisation.ts';

type TOrganisationRow = typeof organisations.$inferSelect;

/** Only one's own organisation exists for a caller; any other id is simply not found. */
function assertOwnOrganisation(principal: TPrincipal, organisationId: string): void {
  if (principal.organisationId !== organisationId) throw AppError.notFound('Organisation');
}

/** The organisation with the facilities the caller may work in (ZOrganisationDetails). */
async function presentOrganisation(
  db: TDbOrTx,
  scope: TScope,
  organisation: TOrganisationRow,
): Promise<TOrganisationDetails> {
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
    time_zone: organisation.timeZone,
    all_facilities: rows.map(presentFacility),
    child_facility_ids: rows.filter((row) => row.parentFacilityId !== null).map((row) => row.id),
  };
}

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
      assertOwnOrganisation(principal, request.params.id);
      const scope = await loadScope(db, principal);
      const [organisation] = await db
        .select()
        .from(organisations)
        .where(eq(organisations.id, scope.organisationId));
      if (!organisation) throw AppError.notFound('Organisation');
      return presentOrganisation(db, scope, organisation);
    },
  );

  app.put(
    '/user/organisation/:id',
    {
      schema: {
        tags: ['organisations'],
        security: [{ bearerAuth: [] }],
        summary: "Change the organisation's name, report style and time zone (administrators)",
        description:
          'report_style is serialized JSON text of the report layout (fonts sizes, margins, header/footer heights, signature placement; every key optional, unknown keys refused). It is validated (400 naming the path, e.g. report_style.margins_mm.top) and stored with its defaults filled in; null clears it (documents use the defaults).',
        params: z.object({ id: ZUuid }),
        body: ZUpdateOrganisationBody,
        response: { 200: ZOrganisationDetails, ...ZErrorResponses },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      assertOwnOrganisation(principal, request.params.id);
      const scope = await loadScope(db, principal);
      const organisation = await db.transaction((tx) => updateOrganisation(tx, scope, request.body));
      return presentOrganisation(db, scope, organisation);
    },
  );
};
