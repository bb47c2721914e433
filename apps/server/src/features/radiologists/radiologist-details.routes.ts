import { ZUserDetails, ZUuid, type TRole } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { canUser } from '../users/users.policy.ts';
import { presentUserDetails } from '../users/users.presenter.ts';
import { findVisibleUser } from '../users/users.queries.ts';

const security = [{ bearerAuth: [] }];
const tags = ['radiologists'];
const params = z.object({ user_fk: ZUuid });

/**
 * The reporting screen's details of a radiologist or a transcriptionist (name, role, description,
 * facilities, whether a signature is on file): the users presenter's GET /user/details shape. Who can
 * be seen is the users feature's rule (an admin: the organisation; staff: users sharing a facility
 * with them, and admins; a referring physician: only themselves), so these routes never show more
 * than /user/details does. Anyone else, or a user of another role, answers 404.
 */
export const radiologistDetailsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  async function details(
    database: TDbOrTx,
    request: Parameters<typeof requirePrincipal>[0],
    userId: string,
    role: TRole,
  ) {
    const scope = await loadScope(database, requirePrincipal(request));
    const user = await findVisibleUser(database, scope.principal, { id: userId });
    if (!user || user.role !== role || user.organisationId !== scope.organisationId) {
      throw AppError.notFound(role === 'RADIOLOGIST' ? 'Radiologist' : 'Transcriptionist');
    }
    if (!canUser(scope.principal, 'read', user))
      throw new AppError('FORBIDDEN', 'You may not view this user');
    return presentUserDetails(database, user, scope.principal);
  }

  // Static paths (/radiologist/active, /radiologist/templates, /radiologist/transcriptionist/…) win
  // over this parametric one in Fastify's router, whatever the registration order.
  app.get(
    '/radiologist/:user_fk',
    {
      schema: {
        tags,
        security,
        summary: 'A radiologist’s details for the reporting screen',
        params,
        response: { 200: ZUserDetails, ...ZErrorResponses },
      },
    },
    async (request) => details(db, request, request.params.user_fk, 'RADIOLOGIST'),
  );

  app.get(
    '/radiologist/transcriptionist/:user_fk',
    {
      schema: {
        tags,
        security,
        summary: 'A transcriptionist’s details for the reporting screen',
        params,
        response: { 200: ZUserDetails, ...ZErrorResponses },
      },
    },
    async (request) => details(db, request, request.params.user_fk, 'TRANSCRIPTIONIST'),
  );
};
