import { ZActivateFields, ZCreateOrderFields, ZDuplicateFields, ZWorklistItem } from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope, type TScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { assertActingAs } from '../../access/acting-as.ts';
import { authorizeWorklist } from '../studies/study.policy.ts';
import { activateStudy, duplicateStudy } from './commands/activate-study.ts';
import { createOrder, ORDER_FORM_LIMITS } from './commands/create-order.ts';
import { parseFields, readForm, registerMultipart } from '../../http/multipart.ts';
import { checkUploads } from '../../files/upload-checks.ts';
import { presentAndPublish } from '../studies/commands/publish.ts';

const security = [{ bearerAuth: [] }];
const tags = ['worklist'];
const consumes = ['multipart/form-data', 'application/json'];
const FILES_NOTE =
  'files: up to 10 documents (PDF, JPEG or PNG by content, at most 20 MB each, 100 MB together). Validation failures name the field; nothing is written.';

/** POST /worklist/create/order, /worklist/activate, /worklist/duplicate (multipart forms). */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerMultipart(app, ORDER_FORM_LIMITS);
  const { db } = app.deps.database;

  /** The form, its fields parsed and documents checked, before any transaction starts. */
  async function readChecked<TSchema extends Parameters<typeof parseFields>[0]>(
    request: FastifyRequest,
    schema: TSchema,
  ) {
    const form = await readForm(request, ORDER_FORM_LIMITS);
    const fields = parseFields(schema, form.fields);
    await checkUploads(form.files, ORDER_FORM_LIMITS, { optional: true });
    return { fields, files: form.files };
  }

  async function finish(scope: TScope, id: string) {
    const [item] = await presentAndPublish(app, scope, [id]);
    if (!item) throw AppError.notFound('Worklist item');
    return item;
  }

  app.post(
    '/worklist/create/order',
    {
      schema: {
        tags,
        security,
        consumes,
        summary: 'Create an order (a new ORDERED worklist item)',
        description: `Fields: patient_name, patient_id (absent: a generated SM… identifier), patient_sex, patient_birth_date, modality, study, body_part, datetime, facility_fk, priority_tag, referring_physician_fk or referring_physician_name, clinical_history, by_user_id. ${FILES_NOTE}`,
        response: { 201: ZWorklistItem, ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      authorizeWorklist(scope.principal, 'create-order', undefined, 'You may not create orders');
      const { fields, files } = await readChecked(request, ZCreateOrderFields);
      assertActingAs(scope.principal, fields.by_user_id);
      const id = await db.transaction((tx) => createOrder(tx, app.deps.blobs, { scope, fields, files }));
      return reply.status(201).send(await finish(scope, id));
    },
  );

  app.post(
    '/worklist/activate',
    {
      schema: {
        tags,
        security,
        consumes,
        summary: 'Activate an order (ORDERED → TO_READ) with its study details and files',
        description: `Fields: worklist_id, study_uid (absent: a generated 2.25.… UID), series_count, instance_count, modality, study, body_part, datetime, by_user_id. ${FILES_NOTE}`,
        response: { 200: ZWorklistItem, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const { fields, files } = await readChecked(request, ZActivateFields);
      assertActingAs(scope.principal, fields.by_user_id);
      const id = await db.transaction((tx) => activateStudy(tx, app.deps.blobs, { scope, fields, files }));
      return finish(scope, id);
    },
  );

  app.post(
    '/worklist/duplicate',
    {
      schema: {
        tags,
        security,
        consumes,
        summary: 'Copy an item as a new order (shares study_uid and accession with the original)',
        description: 'Fields: worklist_id, by_user_id.',
        response: { 201: ZWorklistItem, ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const { fields } = await readChecked(request, ZDuplicateFields);
      assertActingAs(scope.principal, fields.by_user_id);
      const id = await db.transaction((tx) => duplicateStudy(tx, { scope, worklistId: fields.worklist_id }));
      return reply.status(201).send(await finish(scope, id));
    },
  );
};
