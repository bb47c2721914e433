import {
  MAX_SIGNATURE_BYTES,
  ZAdminResetPasswordBody,
  ZAdminResetPasswordResponse,
  ZErrorBody,
  ZResendInvitationResponse,
  ZSaveUserResponse,
  ZUserIdParams,
} from '@ris/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assertActingAs } from '../../access/acting-as.ts';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import type { TRequestOrigin } from '../../auth/audit.ts';
import { adminPasswordResetMail, invitationMail } from '../../auth/invitations.ts';
import { announceUserChange } from '../../auth/revocation.ts';
import { AppError } from '../../http/app-error.ts';
import { registerMultipart } from '../../http/multipart.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { saveUser } from './commands/save-user.ts';
import { updateOwnDetails } from './commands/update-own-details.ts';
import { resendInvitation, startPasswordReset, type TIssuedLink } from './commands/user-links.ts';
import { presentManagedUserRow } from './user-admin.presenter.ts';
import { readUserForm, USER_FORM_LIMITS } from './user-form.ts';
import { administersUsers, authorizeUserAdministration } from './users.policy.ts';
import { findUserRow, findVisibleUser } from './users.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['users'];

const ZSaveResponses = {
  ...ZErrorResponses,
  409: ZErrorBody.describe(
    'email: the address is taken (case-insensitively); role/status: the last active administrator of the organisation',
  ),
  413: ZErrorBody.describe(
    `signature_file: larger than ${MAX_SIGNATURE_BYTES / 1024 / 1024} MB or 4 megapixels`,
  ),
  415: ZErrorBody.describe('signature_file: not a PNG or JPEG by its content'),
};

const originOf = (request: FastifyRequest): TRequestOrigin => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

/**
 * User administration's writes (spec §7 POST /user, POST /user/reset-password) and the invitation
 * sent again. Admins manage everyone of their organisation, facility admins the transcriptionists
 * and referring physicians of their own facility; everyone else is refused (403) before the form is
 * read. A user outside what the caller administers answers 404.
 */
export const userAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerMultipart(app, USER_FORM_LIMITS);
  const { db } = app.deps.database;
  const { blobs, config } = app.deps;
  const identity = app.identity.context;

  async function administrationScope(request: FastifyRequest) {
    const scope = await loadScope(db, requirePrincipal(request));
    authorizeUserAdministration(scope.principal);
    return scope;
  }

  /** Mails a link after the response has gone (the outbox or SMTP, as every identity mail). */
  function mailAfter(
    request: FastifyRequest,
    reply: FastifyReply,
    issued: TIssuedLink,
    kind: 'invitation' | 'reset',
  ) {
    const message =
      kind === 'invitation'
        ? invitationMail({
            to: issued.to,
            invitedBy: issued.by,
            organisationName: issued.organisationName,
            link: issued.link,
          })
        : adminPasswordResetMail({ to: issued.to, requestedBy: issued.by, link: issued.link });
    const principal = requirePrincipal(request);
    identity.mail.dispatch(
      { ...message, organisationId: principal.organisationId, createdBy: principal.userId },
      reply.raw,
    );
  }

  app.post(
    '/user',
    {
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data', 'application/json'],
        summary: 'Create a user (no id) and invite them by e-mail, or change a user (id)',
        description:
          "Multipart fields: id, role, first_name, last_name, email, display_name, status, by_user_id (required: the caller), organisation_fk (the caller's), radiologist_description, user_type (RADIOLOGIST or REPORTER, radiologists only), facility_fks (repeated; an empty value clears), delete_signature, and the file signature_file (PNG or JPEG by content, at most 1 MB and 4 megapixels). Creating needs role, first_name, last_name and email; the new user gets an invitation e-mail with a one-time link to choose their password (valid 7 days). Anyone may change their own names, display name and (radiologists) description and signature with id = themselves; nobody changes their own role, status, user type, facilities or (unless an administrator) e-mail; the last active administrator can be neither demoted nor disabled (409). Disabling, a role change and a facility change apply on the user's next request.",
        response: { 200: ZSaveUserResponse, 201: ZSaveUserResponse, ...ZSaveResponses },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const { fields, signature } = await readUserForm(request);
      assertActingAs(scope.principal, fields.by_user_id);
      // One's own details (the profile) are for everyone; managing users is for administrators.
      const ownDetails = fields.id === scope.principal.userId && !administersUsers(scope.principal);
      if (!ownDetails) authorizeUserAdministration(scope.principal);
      const input = {
        scope,
        fields,
        signature,
        origin: originOf(request),
        publicUrl: config.publicUrl,
        blobs,
      };
      const result = await db.transaction((tx) =>
        ownDetails ? updateOwnDetails(tx, input) : saveUser(tx, input),
      );
      if (result.accessChanged) announceUserChange(result.userId);
      if (result.invitation) {
        const { to, invitedBy, organisationName, link } = result.invitation;
        mailAfter(
          request,
          reply,
          { userId: result.userId, to, by: invitedBy, organisationName, link },
          'invitation',
        );
      }
      const saved = await findUserRow(db, result.userId);
      if (!saved) throw AppError.notFound('User');
      return reply.status(result.created ? 201 : 200).send({
        user: await presentManagedUserRow(db, scope, saved),
        created: result.created,
        invitation_sent: result.invitation !== null,
      });
    },
  );

  app.post(
    '/user/reset-password',
    {
      schema: {
        tags,
        security,
        summary: 'Start a password reset for a user the caller manages',
        description:
          'send_email true (default): the one-time link is mailed to the user; false: it is returned (reset_link) to hand over in person. Either way the audit trail records who started it. An address outside what the caller administers answers 404, like one nobody has.',
        body: ZAdminResetPasswordBody,
        response: { 200: ZAdminResetPasswordResponse, ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await administrationScope(request);
      const sendEmail = request.body.send_email;
      const issued = await db.transaction((tx) =>
        startPasswordReset(tx, {
          scope,
          origin: originOf(request),
          publicUrl: config.publicUrl,
          email: request.body.email,
          sendEmail,
          ttlMinutes: config.auth.resetTokenTtlMinutes,
        }),
      );
      if (sendEmail) mailAfter(request, reply, issued, 'reset');
      return {
        sent: sendEmail,
        reset_link: sendEmail ? null : issued.link.link,
        expires_at: sendEmail ? null : issued.link.expiresAt.toISOString(),
      };
    },
  );

  app.post(
    '/user/:id/invitation',
    {
      schema: {
        tags,
        security,
        summary: 'Send the invitation e-mail again (the earlier link stops working)',
        description: '409 when the user has already set a password or is disabled.',
        params: ZUserIdParams,
        response: {
          200: ZResendInvitationResponse,
          ...ZErrorResponses,
          409: ZErrorBody.describe('The user has set a password already, or is disabled'),
        },
      },
    },
    async (request, reply) => {
      // A user the caller cannot see is not found, whoever asks (before the role is looked at).
      if (!(await findVisibleUser(db, requirePrincipal(request), { id: request.params.id }))) {
        throw AppError.notFound('User');
      }
      const scope = await administrationScope(request);
      const issued = await db.transaction((tx) =>
        resendInvitation(tx, {
          scope,
          origin: originOf(request),
          publicUrl: config.publicUrl,
          userId: request.params.id,
        }),
      );
      mailAfter(request, reply, issued, 'invitation');
      return { sent: true, expires_at: issued.link.expiresAt.toISOString() };
    },
  );
};
