import { ZAddPatientDocumentsFields, ZKeepPatientDocumentsFields, ZUuid, ZWorklistItem } from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope, type TScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { parseFields, readForm, registerMultipart } from '../../http/multipart.ts';
import { sendStoredFile } from '../../files/send-stored-file.ts';
import { checkUploads } from '../../files/upload-checks.ts';
import { presentAndPublish } from '../studies/commands/publish.ts';
import { assertActingAs } from '../../access/acting-as.ts';
import {
  attachPatientDocuments,
  findPatientDocument,
  PATIENT_DOCUMENT_LIMITS,
  replacePatientDocuments,
  requireDocumentManager,
} from './patient-documents.ts';

const security = [{ bearerAuth: [] }];
const tags = ['worklist'];
const consumes = ['multipart/form-data', 'application/json'];
const FILES_NOTE =
  'files: up to 10 documents (PDF, JPEG, PNG or WebP by content, at most 25 MB each, 100 MB together). Nothing is written when any file is refused.';

/** POST / PATCH /worklist/{id}/document and GET /worklist/{id}/document/{document_id}. */
export const patientDocumentRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerMultipart(app, PATIENT_DOCUMENT_LIMITS);
  const { db } = app.deps.database;
  const { blobs } = app.deps;
  const scopeOf = (request: FastifyRequest) => loadScope(db, requirePrincipal(request));

  /** Scope and permission first (uploads of callers who may not change the item are never read). */
  async function readChecked(request: FastifyRequest, studyId: string) {
    const scope = await scopeOf(request);
    await requireDocumentManager(db, scope, studyId);
    const form = await readForm(request, PATIENT_DOCUMENT_LIMITS);
    return { scope, form };
  }

  async function finish(scope: TScope, id: string) {
    const [item] = await presentAndPublish(app, scope, [id]);
    if (!item) throw AppError.notFound('Worklist item');
    return item;
  }

  app.post(
    '/worklist/:id/document',
    {
      schema: {
        tags,
        security,
        consumes,
        summary: 'Add patient documents to an item',
        description: `${FILES_NOTE} Returns the item with its documents.`,
        params: z.object({ id: ZUuid }),
        response: { 201: ZWorklistItem, ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const { scope, form } = await readChecked(request, request.params.id);
      const fields = parseFields(ZAddPatientDocumentsFields, form.fields);
      assertActingAs(scope.principal, fields.by_user_id);
      await checkUploads(form.files, PATIENT_DOCUMENT_LIMITS);
      const id = await db.transaction((tx) =>
        attachPatientDocuments(tx, blobs, { scope, studyId: request.params.id, files: form.files }),
      );
      return reply.status(201).send(await finish(scope, id));
    },
  );

  app.patch(
    '/worklist/:id/document',
    {
      schema: {
        tags,
        security,
        consumes,
        summary: 'Replace the set of patient documents of an item',
        description: `filenames (repeated): the existing documents to keep (by filename, or id); the others are removed from the item; files are added. All in one transaction. ${FILES_NOTE}`,
        params: z.object({ id: ZUuid }),
        response: { 200: ZWorklistItem, ...ZErrorResponses },
      },
    },
    async (request) => {
      const { scope, form } = await readChecked(request, request.params.id);
      const { 'filenames[]': bracketed, ...rest } = form.fields;
      const fields = parseFields(
        ZKeepPatientDocumentsFields,
        bracketed === undefined ? rest : { filenames: bracketed, ...rest },
      );
      assertActingAs(scope.principal, fields.by_user_id);
      await checkUploads(form.files, PATIENT_DOCUMENT_LIMITS, { optional: true });
      const id = await db.transaction((tx) =>
        replacePatientDocuments(tx, blobs, {
          scope,
          studyId: request.params.id,
          keep: fields.filenames,
          files: form.files,
        }),
      );
      return finish(scope, id);
    },
  );

  app.get(
    '/worklist/:id/document/:document_id',
    {
      schema: {
        tags,
        security,
        summary: 'One patient document, inline (its stored media type; nosniff)',
        params: z.object({ id: ZUuid, document_id: ZUuid }),
        response: { ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request);
      const { document, file } = await findPatientDocument(
        db,
        scope,
        request.params.id,
        request.params.document_id,
      );
      return sendStoredFile(reply, blobs, file, document.filename);
    },
  );
};
