import {
  ZErrorWithDetail,
  ZInviteReferringPhysicianBody,
  ZInviteReferringPhysicianResult,
  ZReferringPhysician,
  ZReferringPhysicianList,
  ZReferringPhysicianListQuery,
  ZSaveReferringPhysicianBody,
  ZUuid,
} from '@ris/domain';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertActingAs } from '../../access/acting-as.ts';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { invitationMail } from '../../auth/invitations.ts';
import { errorHandler } from '../../http/error-handler.ts';
import { inviteReferringPhysician } from './commands/invite-referring-physician.ts';
import { saveReferringPhysician } from './commands/save-referring-physician.ts';
import { authorizeReferringPhysician } from './referring-physicians.policy.ts';
import { presentReferringPhysician } from './referring-physicians.presenter.ts';
import { listReferringPhysicians, requireVisiblePhysician } from './referring-physicians.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['referring-physicians'];

/** Every error of these routes, with the `detail` the specification's client reads. */
const ZPhysicianErrors = {
  400: ZErrorWithDetail,
  401: ZErrorWithDetail,
  403: ZErrorWithDetail,
  404: ZErrorWithDetail,
  409: ZErrorWithDetail,
  422: ZErrorWithDetail,
};

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
 * Referring physicians: GET /user/referring-physicians (the order dialog's picker and the Referring
 * physicians screen), POST /user/referring-physician (create, or change with `id`) and
 * POST /user/referring-physician/{id}/invitation. Errors also carry `detail`.
 */
export const referringPhysicianRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.setErrorHandler(errorHandlerWithDetail);
  const scopeOf = (request: FastifyRequest) => loadScope(db, requirePrincipal(request));
  const originOf = (request: FastifyRequest) => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  });

  app.get(
    '/user/referring-physicians',
    {
      schema: {
        tags,
        security,
        summary: "The organisation's referring physicians the caller sees, searched, filtered and paginated",
        querystring: ZReferringPhysicianListQuery,
        response: { 200: ZReferringPhysicianList, ...ZPhysicianErrors },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      authorizeReferringPhysician(scope, 'list');
      const { pagination, rows } = await listReferringPhysicians(db, scope, request.query);
      return { ...pagination, items: rows.map((row) => presentReferringPhysician(row, scope)) };
    },
  );

  app.post(
    '/user/referring-physician',
    {
      schema: {
        tags,
        security,
        summary: 'Create a referring physician, or change one with `id` (errors also carry `detail`)',
        body: ZSaveReferringPhysicianBody,
        response: { 200: ZReferringPhysician, 201: ZReferringPhysician, ...ZPhysicianErrors },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request);
      assertActingAs(scope.principal, request.body.by_user_id);
      const { id, created } = await db.transaction((tx) =>
        saveReferringPhysician(tx, { scope, body: request.body, origin: originOf(request) }),
      );
      const row = await requireVisiblePhysician(db, scope, id);
      return reply.status(created ? 201 : 200).send(presentReferringPhysician(row, scope));
    },
  );

  app.post(
    '/user/referring-physician/:id/invitation',
    {
      schema: {
        tags,
        security,
        summary: 'Invite a referring physician to sign in and read their patients’ final reports',
        description:
          'Creates (or links) their REFERRING_PHYSICIAN account and mails a one-time link to choose a password (valid 7 days); sent again while the account has not set one (the earlier link stops working). Needs an active physician with an e-mail (422/409 naming the field); an address used by another kind of account is 409 naming email.',
        params: z.object({ id: ZUuid }),
        body: ZInviteReferringPhysicianBody.nullish(),
        response: { 200: ZInviteReferringPhysicianResult, ...ZPhysicianErrors },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request);
      assertActingAs(scope.principal, request.body?.by_user_id);
      const issued = await db.transaction((tx) =>
        inviteReferringPhysician(tx, {
          scope,
          physicianId: request.params.id,
          origin: originOf(request),
          publicUrl: app.deps.config.publicUrl,
          blobs: app.deps.blobs,
        }),
      );
      if (issued) {
        const message = invitationMail({
          to: issued.to,
          invitedBy: issued.by,
          organisationName: issued.organisationName,
          link: issued.link,
        });
        app.identity.context.mail.dispatch(
          { ...message, organisationId: scope.organisationId, createdBy: scope.principal.userId },
          reply.raw,
        );
      }
      const row = await requireVisiblePhysician(db, scope, request.params.id);
      return {
        physician: presentReferringPhysician(row, scope),
        sent: issued !== null,
        expires_at: issued?.link.expiresAt.toISOString() ?? null,
      };
    },
  );
};
