import {
  MAX_LETTERHEAD_BYTES,
  ZCreateFacilityBody,
  ZDeleteLetterheadInput,
  ZErrorBody,
  ZFacilityDetails,
  ZUpdateFacilityBody,
  ZUuid,
} from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { registerMultipart } from '../../http/multipart.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { sendStoredFile } from '../../files/send-stored-file.ts';
import { findStoredFile } from '../../files/stored-files.ts';
import {
  createFacility,
  deleteLetterhead,
  requireVisibleFacility,
  setLetterhead,
  updateFacility,
} from './facility.commands.ts';
import { authorizeFacility } from './facility.policy.ts';
import { presentFacilityDetails } from './facility.presenter.ts';
import { LETTERHEAD_FORM_LIMITS, readLetterheadForm } from './letterhead-form.ts';

const security = [{ bearerAuth: [] }];
const tags = ['facilities'];
const params = z.object({ id: ZUuid });

const ZWriteResponses = {
  ...ZErrorResponses,
  409: ZErrorBody.describe('code: another facility of the organisation has this code'),
};
const ZUploadResponses = {
  ...ZErrorResponses,
  413: ZErrorBody.describe(
    `An image is larger than ${MAX_LETTERHEAD_BYTES / 1024 / 1024} MB (the message names it)`,
  ),
  415: ZErrorBody.describe('An image is not a PNG or JPEG by its content (the message names it)'),
};

/**
 * Facilities and their letterheads (spec §7 /user/facility/*). A facility outside the caller's
 * organisation, or (for everyone but admins) outside their own facilities, answers 404.
 */
export const facilityRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerMultipart(app, LETTERHEAD_FORM_LIMITS);
  const { db } = app.deps.database;
  const { blobs } = app.deps;
  const scopeOf = (request: FastifyRequest) => loadScope(db, requirePrincipal(request));

  app.get(
    '/user/facility/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A facility with its letterhead (anyone who works in it; admins: every facility)',
        params,
        response: { 200: ZFacilityDetails, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      return presentFacilityDetails(await requireVisibleFacility(db, scope, request.params.id));
    },
  );

  app.post(
    '/user/facility',
    {
      schema: {
        tags,
        security,
        summary: "Create a facility of the caller's organisation (administrators)",
        body: ZCreateFacilityBody,
        response: { 201: ZFacilityDetails, ...ZWriteResponses },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request);
      const row = await db.transaction((tx) => createFacility(tx, scope, request.body));
      return reply.status(201).send(presentFacilityDetails(row));
    },
  );

  app.put(
    '/user/facility/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change a facility (the fields given)',
        description:
          "Administrators; a facility administrator for their own facility's details, but not status or parent_facility_fk (403).",
        params,
        body: ZUpdateFacilityBody,
        response: { 200: ZFacilityDetails, ...ZWriteResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const row = await db.transaction((tx) => updateFacility(tx, scope, request.params.id, request.body));
      return presentFacilityDetails(row);
    },
  );

  app.post(
    '/user/facility/:id/letterhead',
    {
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data', 'application/json'],
        summary: 'Upload letterhead images and/or switch the letterhead on or off',
        description: `Multipart fields: enable_letterhead (true/false), header_file, footer_file (PNG or JPEG by content, at most ${MAX_LETTERHEAD_BYTES / 1024 / 1024} MB each; nothing is stored when one is refused). Administrators and the facility's administrator. Enabling a letterhead without images is allowed: documents then keep the header and footer space blank (for pre-printed paper), as they do without letterhead.`,
        params,
        response: { 200: ZFacilityDetails, ...ZUploadResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      // Scope and permission first: uploads of callers who may not change the letterhead are never read.
      await requireVisibleFacility(db, scope, request.params.id);
      authorizeFacility(scope.principal, 'letterhead');
      const upload = await readLetterheadForm(request);
      const row = await db.transaction((tx) => setLetterhead(tx, blobs, scope, request.params.id, upload));
      return presentFacilityDetails(row);
    },
  );

  app.delete(
    '/user/facility/:id/letterhead',
    {
      schema: {
        tags,
        security,
        summary: 'Remove the letterhead header and/or footer image',
        description:
          'delete_header, delete_footer: in the query string or a JSON body (either true is enough; at least one). letterhead_enabled is unchanged.',
        params,
        querystring: ZDeleteLetterheadInput,
        body: ZDeleteLetterheadInput.nullish(),
        response: { 200: ZFacilityDetails, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const { query, body } = request;
      const row = await db.transaction((tx) =>
        deleteLetterhead(tx, scope, request.params.id, {
          deleteHeader: query.delete_header || (body?.delete_header ?? false),
          deleteFooter: query.delete_footer || (body?.delete_footer ?? false),
        }),
      );
      return presentFacilityDetails(row);
    },
  );

  for (const part of ['header', 'footer'] as const) {
    app.get(
      `/user/facility/:id/letterhead/${part}`,
      {
        schema: {
          tags,
          security,
          summary: `The facility's letterhead ${part} image (for the letterhead preview)`,
          params,
          response: { ...ZErrorResponses },
        },
      },
      async (request, reply) => {
        const scope = await scopeOf(request);
        const facility = await requireVisibleFacility(db, scope, request.params.id);
        const file = await findStoredFile(
          db,
          part === 'header' ? facility.letterheadHeaderFileId : facility.letterheadFooterFileId,
        );
        if (!file) throw AppError.notFound(`Letterhead ${part}`);
        return sendStoredFile(reply, blobs, file, file.originalName ?? `${part}.png`);
      },
    );
  }
};
