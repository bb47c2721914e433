import {
  ZErrorBody,
  ZMergePatientBody,
  ZMergePatientResult,
  ZPatchPatientBody,
  ZPatient,
  ZPatientList,
  ZPatientStudies,
  ZPatientStudiesQuery,
  ZPatientsQuery,
  ZUuid,
} from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertActingAs } from '../../access/acting-as.ts';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { publishStudies } from '../studies/commands/publish.ts';
import { withAbilities } from '../studies/study.presenter.ts';
import { presentWorklistRows } from '../studies/study.queries.ts';
import { mergePatients } from './commands/merge-patients.ts';
import { authorizePatient } from './patients.policy.ts';
import { presentPatient } from './patients.presenter.ts';
import { assertLive, listPatientStudies, listPatients, requireScopedPatient } from './patients.queries.ts';
import { updatePatient } from './update-patient.ts';

const security = [{ bearerAuth: [] }];
const tags = ['patients'];
const ZPatientParams = z.object({ id: ZUuid });
const ZConflict = { 409: ZErrorBody.describe('The record was merged, or the patient id is taken') };

/**
 * Patient records: GET /user/patients (the order dialog's patient search and the Patients screen),
 * PATCH /user/patient/{id}, GET /user/patient/{id}/studies, POST /user/patient/{id}/merge.
 */
export const patientRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const scopeOf = (request: FastifyRequest) => loadScope(db, requirePrincipal(request));

  app.get(
    '/user/patients',
    {
      schema: {
        tags,
        security,
        summary: 'Patients of the caller’s facilities, searched and paginated',
        querystring: ZPatientsQuery,
        response: { 200: ZPatientList, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      authorizePatient(scope.principal, 'read');
      const { pagination, rows } = await listPatients(db, scope, request.query);
      return { ...pagination, items: rows.map((row) => presentPatient(row, scope.principal)) };
    },
  );

  app.patch(
    '/user/patient/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Correct a patient record (its studies’ patient columns are rewritten with it)',
        params: ZPatientParams,
        body: ZPatchPatientBody,
        response: { 200: ZPatient, ...ZErrorResponses, ...ZConflict },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const body = request.body;
      assertActingAs(scope.principal, body.by_user_id);
      const { patient, studyIds } = await db.transaction(async (tx) => {
        const row = await requireScopedPatient(tx, scope, request.params.id, { forUpdate: true });
        authorizePatient(scope.principal, 'edit');
        assertLive(row, 'id');
        const ids = await updatePatient(tx, row, {
          name: body.name,
          patientIdentifier: body.patient_id,
          sex: body.sex,
          birthDate: body.birth_date,
          phone: body.phone,
          email: body.email,
        });
        return { patient: await requireScopedPatient(tx, scope, row.id), studyIds: ids };
      });
      await publishStudies(app, scope.organisationId, studyIds);
      return presentPatient(patient, scope.principal);
    },
  );

  app.get(
    '/user/patient/:id/studies',
    {
      schema: {
        tags,
        security,
        summary: 'The studies of a patient record the caller may see (as on the worklist), newest first',
        params: ZPatientParams,
        querystring: ZPatientStudiesQuery,
        response: { 200: ZPatientStudies, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const patient = await requireScopedPatient(db, scope, request.params.id);
      const { pagination, rows } = await listPatientStudies(db, scope, patient.id, request.query);
      const items = await presentWorklistRows(db, rows);
      return { ...pagination, items: items.map((item) => withAbilities(item, scope.principal)) };
    },
  );

  app.post(
    '/user/patient/:id/merge',
    {
      schema: {
        tags,
        security,
        summary: 'Merge another record of the same person into this one (administrators)',
        description:
          'The duplicate’s studies move to record {id}; {id}’s empty fields take the duplicate’s values; the duplicate stays, marked merged into {id} (merged_into_fk), and leaves the patient list. One transaction; the audit log names both records. Records of another facility cannot be merged (422), nor a record into itself (400), nor a record already merged (409).',
        params: ZPatientParams,
        body: ZMergePatientBody,
        response: {
          200: ZMergePatientResult,
          ...ZErrorResponses,
          ...ZConflict,
          422: ZErrorBody.describe('The records belong to different facilities'),
        },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      assertActingAs(scope.principal, request.body.by_user_id);
      const origin = { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
      const outcome = await db.transaction((tx) =>
        mergePatients(tx, {
          scope,
          keptId: request.params.id,
          duplicateId: request.body.duplicate_id,
          origin,
        }),
      );
      await publishStudies(app, scope.organisationId, outcome.changedStudyIds);
      return {
        patient: presentPatient(outcome.kept, scope.principal),
        merged: presentPatient(outcome.merged, scope.principal),
        moved_study_ids: outcome.movedStudyIds,
      };
    },
  );
};
