import { ZUser, ZUserDetails, ZUserEmailParams, ZUuid } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { canUser } from './users.policy.ts';
import { presentUserDetails, presentUserRow } from './users.presenter.ts';
import { findVisibleUser, type TUserKey } from './users.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['users'];

/** The user endpoints of the specification that the client's verification sequence needs. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

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
};
