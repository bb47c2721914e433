import {
  ZCreateReferringPhysicianBody,
  ZErrorWithDetail,
  ZReferringPhysician,
  ZReferringPhysicianList,
  ZReferringPhysicianListQuery,
  type TReferringPhysician,
} from '@ris/domain';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, eq } from 'drizzle-orm';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { referringPhysicians } from '../../db/schema/index.ts';
import { containsFolded } from '../../db/text-search.ts';
import { AppError } from '../../http/app-error.ts';
import { errorHandler } from '../../http/error-handler.ts';
import { canWorklist } from '../studies/study.policy.ts';

const security = [{ bearerAuth: [] }];
const tags = ['referring-physicians'];

function presentReferringPhysician(row: typeof referringPhysicians.$inferSelect): TReferringPhysician {
  return {
    id: row.id,
    organisation_fk: row.organisationId,
    user_fk: row.userId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    registration_number: row.registrationNumber,
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
}

/** Runs the app's error handler, then copies the message to a top-level `detail`. */
function errorHandlerWithDetail(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const send = reply.send.bind(reply);
  reply.send = (payload?: unknown) => {
    const body = payload as { error?: { message?: unknown } } | undefined;
    const message = body?.error?.message;
    return send(typeof message === 'string' ? { ...body, detail: message } : payload);
  };
  return errorHandler(error, request, reply);
}

/**
 * POST /user/referring-physician: the order dialog creates a referring physician it could not find.
 * Order-desk roles only (ADMIN, FACILITY_ADMIN, TRANSCRIPTIONIST); the same name may exist twice (two
 * doctors can share a name), so nothing is deduplicated here.
 */
export const referringPhysicianRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.setErrorHandler(errorHandlerWithDetail);

  app.get(
    '/user/referring-physicians',
    {
      schema: {
        tags,
        security,
        summary: "The organisation's active referring physicians, for the order dialog's picker",
        querystring: ZReferringPhysicianListQuery,
        response: {
          200: ZReferringPhysicianList,
          400: ZErrorWithDetail,
          401: ZErrorWithDetail,
          403: ZErrorWithDetail,
        },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      if (scope.principal.role === 'REFERRING_PHYSICIAN') {
        throw new AppError('FORBIDDEN', 'You may not list referring physicians');
      }
      const search = request.query.search;
      const rows = await db
        .select()
        .from(referringPhysicians)
        .where(
          and(
            eq(referringPhysicians.organisationId, scope.organisationId),
            eq(referringPhysicians.status, 'ACTIVE'),
            search ? containsFolded(referringPhysicians.searchText, search) : undefined,
          ),
        )
        .orderBy(asc(referringPhysicians.name))
        .limit(request.query.limit);
      return { items: rows.map(presentReferringPhysician) };
    },
  );

  app.post(
    '/user/referring-physician',
    {
      schema: {
        tags,
        security,
        summary: 'Create a referring physician (errors also carry `detail`)',
        body: ZCreateReferringPhysicianBody,
        response: {
          201: ZReferringPhysician,
          400: ZErrorWithDetail,
          401: ZErrorWithDetail,
          403: ZErrorWithDetail,
          404: ZErrorWithDetail,
        },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      if (!canWorklist(scope.principal, 'create-order')) {
        throw new AppError('FORBIDDEN', 'You may not create referring physicians');
      }
      const body = request.body;
      const [row] = await db
        .insert(referringPhysicians)
        .values({
          organisationId: scope.organisationId,
          name: body.name,
          email: body.email ?? null,
          phone: body.phone ?? null,
          registrationNumber: body.registration_number ?? null,
        })
        .returning();
      if (!row) throw new Error('referring physician insert returned nothing');
      return reply.status(201).send(presentReferringPhysician(row));
    },
  );
};
