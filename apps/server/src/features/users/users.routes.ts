import {
  paginate,
  ZUser,
  ZUserDetails,
  ZUserEmailParams,
  ZUserList,
  ZUserListQuery,
  ZUserOrganisationParams,
  ZUserPickerList,
  ZUuid,
} from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { sendStoredFile } from '../../files/send-stored-file.ts';
import { findStoredFile } from '../../files/stored-files.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { presentManagedUsers, presentPickerItems } from './user-admin.presenter.ts';
import { userAdminRoutes } from './user-admin.routes.ts';
import { authorizeUserAdministration, canUser } from './users.policy.ts';
import { presentUserDetails, presentUserRow } from './users.presenter.ts';
import {
  findVisibleUser,
  listActiveAdministeredUsers,
  listAdministeredUsers,
  type TUserKey,
} from './users.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['users'];

/**
 * The user endpoints of the specification: the client's verification sequence (GET /user/{id},
 * /user/email/{email}, /user/details/{id}), user administration's reads (GET /user, /user/all/{id},
 * the signature image) and, registered from here, its writes (user-admin.routes.ts).
 */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  await app.register(userAdminRoutes);

  /** The caller's scope for user administration: 403 for anyone but admins and facility admins. */
  async function administrationScope(request: FastifyRequest, organisationId: string | undefined) {
    const principal = requirePrincipal(request);
    // Another organisation is not found, whoever asks (before the role is looked at).
    if (organisationId !== undefined && organisationId !== principal.organisationId) {
      throw AppError.notFound('Organisation');
    }
    const scope = await loadScope(db, principal);
    authorizeUserAdministration(scope.principal);
    return scope;
  }

  async function loadReadable(request: Parameters<typeof requirePrincipal>[0], key: TUserKey) {
    const principal = requirePrincipal(request);
    const user = await findVisibleUser(db, principal, key);
    if (!user) throw AppError.notFound('User');
    if (!canUser(principal, 'read', user)) throw new AppError('FORBIDDEN', 'You may not view this user');
    return user;
  }

  app.get(
    '/user/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A user visible to the caller',
        params: z.object({ id: ZUuid }),
        response: { 200: ZUser, ...ZErrorResponses },
      },
    },
    async (request) => presentUserRow(db, await loadReadable(request, { id: request.params.id })),
  );

  app.get(
    '/user/email/:email',
    {
      schema: {
        tags,
        security,
        summary: 'A user by e-mail (case-insensitive), if visible to the caller',
        params: ZUserEmailParams,
        response: { 200: ZUser, ...ZErrorResponses },
      },
    },
    async (request) => presentUserRow(db, await loadReadable(request, { email: request.params.email })),
  );

  app.get(
    '/user/details/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A user with role details and facilities',
        params: z.object({ id: ZUuid }),
        response: { 200: ZUserDetails, ...ZErrorResponses },
      },
    },
    async (request) =>
      presentUserDetails(
        db,
        await loadReadable(request, { id: request.params.id }),
        requirePrincipal(request),
      ),
  );

  app.get(
    '/user',
    {
      schema: {
        tags,
        security,
        summary: "Users of the caller's organisation, a page at a time (user administration)",
        description:
          "Administrators: every user of the organisation; facility administrators: the users of their facilities (and themselves); everyone else 403. organisation_id, when given, must be the caller's (else 404). search: names and e-mail; facility_ids may repeat. Each user carries the caller's abilities on them.",
        querystring: ZUserListQuery,
        response: { 200: ZUserList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const { query } = request;
      const scope = await administrationScope(request, query.organisation_id);
      const { rows, total } = await listAdministeredUsers(db, scope, query);
      return {
        ...paginate(total, query.limit, query.offset),
        items: await presentManagedUsers(db, scope, rows),
      };
    },
  );

  app.get(
    '/user/all/:organisationId',
    {
      schema: {
        tags,
        security,
        summary: 'Every active user of the organisation, in short, for pickers',
        description: 'Scoped as GET /user: another organisation answers 404.',
        params: ZUserOrganisationParams,
        response: { 200: ZUserPickerList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await administrationScope(request, request.params.organisationId);
      return { items: await presentPickerItems(db, await listActiveAdministeredUsers(db, scope)) };
    },
  );

  app.get(
    '/user/:id/signature',
    {
      schema: {
        tags,
        security,
        summary: "A user's signature image (PNG or JPEG), for its preview",
        description: 'Whoever may see the user (GET /user/{id}); 404 when no signature is on file.',
        params: z.object({ id: ZUuid }),
        response: { ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const user = await loadReadable(request, { id: request.params.id });
      const file = await findStoredFile(db, user.signatureFileId);
      if (!file) throw AppError.notFound('Signature');
      return sendStoredFile(reply, app.deps.blobs, file, file.originalName ?? 'signature.png');
    },
  );
};
