import {
  paginate,
  ZPatchPatientBody,
  ZPatient,
  ZPatientList,
  ZPatientsQuery,
  ZUuid,
  type TPatient,
} from '@ris/domain';
import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { inScopeFacilities, loadScope, type TScope } from '../../access/scope.ts';
import { patients } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { publishStudies } from '../studies/commands/publish.ts';
import { assertActingAs } from '../../access/acting-as.ts';
import { canWorklist } from '../studies/study.policy.ts';
import { updatePatient, type TPatientRow } from './update-patient.ts';
import { containsFolded, folded } from '../../db/text-search.ts';

const security = [{ bearerAuth: [] }];
const tags = ['patients'];

function presentPatient(row: TPatientRow): TPatient {
  return {
    id: row.id,
    facility_fk: row.facilityId,
    patient_id: row.patientIdentifier,
    name: row.name,
    sex: row.sex,
    birth_date: row.birthDate,
    phone: row.phone,
    email: row.email,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Patients are staff records: referring physicians may not list or change them (403). */
function requireStaff(scope: TScope): void {
  if (scope.principal.role === 'REFERRING_PHYSICIAN')
    throw new AppError('FORBIDDEN', 'You may not view patients');
}

/** GET /user/patients (the order dialog's patient search) and PATCH /user/patient/{id}. */
export const patientRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

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
      const scope = await loadScope(db, requirePrincipal(request));
      requireStaff(scope);
      const query = request.query;
      const outside = query.facility_fks.filter((id) => !scope.facilityIds.includes(id));
      if (outside.length > 0) {
        throw new AppError('NOT_FOUND', `facility_fks: facilities not found: ${outside.join(', ')}`, {
          field: 'facility_fks',
          ids: outside,
        });
      }
      const conditions: SQL[] = [
        eq(patients.organisationId, scope.organisationId),
        query.facility_fks.length > 0
          ? inArray(patients.facilityId, query.facility_fks)
          : inScopeFacilities(scope, patients.facilityId),
      ];
      if (query.search) {
        conditions.push(containsFolded(patients.searchText, query.search));
      }
      const where = and(...conditions);
      const [totalRow] = await db.select({ total: count() }).from(patients).where(where);
      const rows = await db
        .select()
        .from(patients)
        .where(where)
        .orderBy(asc(folded(patients.name)), asc(patients.id))
        .limit(query.limit)
        .offset(query.offset);
      return {
        ...paginate(totalRow?.total ?? 0, query.limit, query.offset),
        items: rows.map(presentPatient),
      };
    },
  );

  app.patch(
    '/user/patient/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Correct a patient record (its studies’ patient columns are rewritten with it)',
        params: z.object({ id: ZUuid }),
        body: ZPatchPatientBody,
        response: { 200: ZPatient, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const body = request.body;
      assertActingAs(scope.principal, body.by_user_id);
      const { patient, studyIds } = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(patients)
          .where(
            and(
              eq(patients.id, request.params.id),
              eq(patients.organisationId, scope.organisationId),
              inScopeFacilities(scope, patients.facilityId),
            ),
          )
          .for('update');
        if (!row || scope.principal.role === 'REFERRING_PHYSICIAN') throw AppError.notFound('Patient');
        if (!canWorklist(scope.principal, 'edit-details')) {
          throw new AppError('FORBIDDEN', 'You may not change patient records');
        }
        const ids = await updatePatient(tx, row, {
          name: body.name,
          patientIdentifier: body.patient_id,
          sex: body.sex,
          birthDate: body.birth_date,
          phone: body.phone,
          email: body.email,
        });
        const [updated] = await tx.select().from(patients).where(eq(patients.id, row.id));
        return { patient: updated ?? row, studyIds: ids };
      });
      await publishStudies(app, scope.organisationId, studyIds);
      return presentPatient(patient);
    },
  );
};
