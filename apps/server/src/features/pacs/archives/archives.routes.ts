import {
  ZArchiveTestQuery,
  ZArchiveTestResult,
  ZCreateArchiveBody,
  ZDeletedResponse,
  ZErrorBody,
  ZPacsArchive,
  ZPacsArchiveList,
  ZUpdateArchiveBody,
  ZUuid,
} from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TRequestOrigin } from '../../../auth/audit.ts';
import { requirePrincipal } from '../../../access/require-principal.ts';
import { AppError } from '../../../http/app-error.ts';
import { ZErrorResponses } from '../../../http/openapi-errors.ts';
import { authorizeArchive, type TArchiveAction } from './archives.policy.ts';
import { presentArchive } from './archives.presenter.ts';
import { findArchive, listArchives, withFacilities } from './archives.queries.ts';
import {
  createArchive,
  deleteArchive,
  updateArchive,
  type TArchiveWriteContext,
} from './commands/save-archive.ts';
import { testArchiveConnection } from './commands/test-archive.ts';
import { ensureSyncChains } from '../sync/sync-jobs.ts';

const security = [{ bearerAuth: [] }];
const tags = ['pacs'];
const params = z.object({ id: ZUuid });

const ZWriteResponses = {
  ...ZErrorResponses,
  409: ZErrorBody.describe('name: another archive of the organisation has this name'),
};

const originOf = (request: FastifyRequest): TRequestOrigin => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

/**
 * The organisation's image archives (PACS), for its administrators: list, create, change, remove,
 * and test the connection. Secrets are sealed on the way in and never sent out (has_secret only).
 * Another organisation's archive answers 404 to anyone; everyone but an ADMIN 403.
 */
export const archiveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  /** The caller as an archive administrator of their organisation (403 otherwise). */
  function administrator(request: FastifyRequest, action: TArchiveAction) {
    const principal = requirePrincipal(request);
    authorizeArchive(principal, action);
    return { principal, organisationId: principal.organisationId ?? '' };
  }

  /** The archive, scoped to the caller's organisation first (404), then the policy (403). */
  async function loadArchive(request: FastifyRequest, id: string, action: TArchiveAction) {
    const principal = requirePrincipal(request);
    const row = principal.organisationId ? await findArchive(db, principal.organisationId, id) : null;
    if (!row) throw AppError.notFound('Archive');
    authorizeArchive(principal, action);
    return row;
  }

  /**
   * A new or re-enabled archive starts its chain of sync jobs now rather than at the next start
   * (a no-op while one runs or the archive is off). After the commit; a failure here is logged and
   * the chain starts at the next Sync now or restart.
   */
  async function startSync(request: FastifyRequest, archiveId: string) {
    try {
      await ensureSyncChains(db, { archiveId });
    } catch (error) {
      request.log.error({ err: error, archiveId }, 'could not start the archive sync');
    }
  }

  function writeContext(request: FastifyRequest): TArchiveWriteContext {
    const { principal, organisationId } = administrator(request, 'manage');
    return {
      actorUserId: principal.userId,
      organisationId,
      origin: originOf(request),
      box: app.secretBox,
      allowedHosts: app.deps.config.pacsAllowedHosts,
    };
  }

  app.get(
    '/pacs/archives',
    {
      schema: {
        tags,
        security,
        summary: "The organisation's image archives with their sync state (administrators)",
        description:
          'The password or token of an archive is never sent: has_secret says whether one is stored.',
        response: { 200: ZPacsArchiveList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const { organisationId } = administrator(request, 'read');
      return { archives: (await listArchives(db, organisationId)).map(presentArchive) };
    },
  );

  app.post(
    '/pacs/archives',
    {
      schema: {
        tags,
        security,
        summary: 'Add an image archive (administrators)',
        description:
          "URLs: http(s) without credentials in them. orthanc_url is required for kind 'orthanc'; username and secret for auth_kind 'basic', secret for 'bearer'. facilities: facilities of the caller's organisation; default_facility_id one of them.",
        body: ZCreateArchiveBody,
        response: { 201: ZPacsArchive, ...ZWriteResponses },
      },
    },
    async (request, reply) => {
      const context = writeContext(request);
      const archive = await db.transaction(async (tx) =>
        withFacilities(tx, await createArchive(tx, context, request.body)),
      );
      await startSync(request, archive.row.id);
      return reply.status(201).send(presentArchive(archive));
    },
  );

  app.put(
    '/pacs/archives/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change an image archive (the fields given)',
        description:
          "secret: omitted keeps the stored one, '' clears it, any other text replaces it; auth_kind 'none' clears the credentials; a URL moved to another scheme, host or port needs the secret given again (400 naming secret). facilities, when given, replaces the list. The result is checked as a whole (as on create).",
        params,
        body: ZUpdateArchiveBody,
        response: { 200: ZPacsArchive, ...ZWriteResponses },
      },
    },
    async (request) => {
      await loadArchive(request, request.params.id, 'manage');
      const context = writeContext(request);
      const archive = await db.transaction(async (tx) =>
        withFacilities(tx, await updateArchive(tx, context, request.params.id, request.body)),
      );
      await startSync(request, archive.row.id);
      return presentArchive(archive);
    },
  );

  app.delete(
    '/pacs/archives/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Remove an image archive',
        description:
          'Its studies stay on the worklist; they no longer name an archive (their images are then read from the archive serving their facility, if any).',
        params,
        response: { 200: ZDeletedResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      await loadArchive(request, request.params.id, 'manage');
      const context = writeContext(request);
      await db.transaction((tx) => deleteArchive(tx, context, request.params.id));
      return { id: request.params.id, deleted: true as const };
    },
  );

  app.post(
    '/pacs/archives/:id/test',
    {
      schema: {
        tags,
        security,
        summary: 'Call the archive now with its stored credentials',
        description:
          "DICOMweb: GET {dicomweb_url}/studies?limit=1; Orthanc also GET {orthanc_url}/system. Refused credentials, a time-out or an unreachable host answer 200 with ok false and a message, never an error status. timeout_seconds: each call's wait (default 10).",
        params,
        querystring: ZArchiveTestQuery,
        response: { 200: ZArchiveTestResult, ...ZErrorResponses },
      },
    },
    async (request) => {
      const row = await loadArchive(request, request.params.id, 'test');
      return testArchiveConnection(row, app.secretBox, request.query.timeout_seconds * 1000);
    },
  );
};
