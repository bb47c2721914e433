import { maySyncFromPacs, ZErrorBody, ZPopulateQuery, ZPopulateResult } from '@ris/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../../access/require-principal.ts';
import { loadScope } from '../../../access/scope.ts';
import { pacsArchiveFacilities, pacsArchives } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { ZErrorResponses } from '../../../http/openapi-errors.ts';
import { syncNow } from './sync-now.ts';

/** GET /worklist/populate/worklist (§7): pull studies from the caller's archives now. */
export const populateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/worklist/populate/worklist',
    {
      schema: {
        tags: ['pacs'],
        security: [{ bearerAuth: [] }],
        summary: 'Pull new and changed studies from the image archives now',
        description:
          'Admins sync every enabled archive of their organisation, facility admins the archives serving their facility (`archive_id` picks one). The pass runs as the archive’s sync job; the answer waits for it (at most 60 s) and says what it added (new items and ORDERED orders activated by accession), updated (counts) and marked deleted. An archive that cannot be reached is reported in `archives[].error`, not as an HTTP error.',
        querystring: ZPopulateQuery,
        response: { 200: ZPopulateResult, ...ZErrorResponses, 404: ZErrorBody.describe('No such archive') },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      if (!maySyncFromPacs(principal.role)) {
        throw new AppError('FORBIDDEN', 'Only administrators may sync from the PACS');
      }
      const scope = await loadScope(db, principal);
      const { archive_id: archiveId } = request.query;
      const rows = await db
        .selectDistinct({ id: pacsArchives.id, name: pacsArchives.name, createdAt: pacsArchives.createdAt })
        .from(pacsArchives)
        .leftJoin(pacsArchiveFacilities, eq(pacsArchiveFacilities.archiveId, pacsArchives.id))
        .where(
          and(
            eq(pacsArchives.organisationId, scope.organisationId),
            eq(pacsArchives.enabled, true),
            archiveId ? eq(pacsArchives.id, archiveId) : undefined,
            scope.allFacilities
              ? undefined
              : inArray(
                  pacsArchiveFacilities.facilityId,
                  scope.facilityIds.length ? scope.facilityIds : ['00000000-0000-0000-0000-000000000000'],
                ),
          ),
        )
        .orderBy(asc(pacsArchives.createdAt));
      if (archiveId && rows.length === 0) throw AppError.notFound('Archive');
      return syncNow(db, rows);
    },
  );
};
