// Patient records. A patient belongs to the facility that registered them: medical record numbers
// are issued by each hospital, so two facilities of one group may both have a patient 'MRN-1'.
import { sql } from 'drizzle-orm';
import { date, index, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { primaryId, timestamps, timestamptz } from './columns.ts';
import { facilities, organisations } from './organisations.ts';

export const patients = pgTable(
  'patients',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    facilityId: uuid('facility_id')
      .notNull()
      .references(() => facilities.id, { onDelete: 'restrict' }),
    /** The spec's patient_id: the MRN shown in the worklist (DICOM PatientID). */
    patientIdentifier: text('patient_identifier').notNull(),
    name: text('name').notNull(),
    /** DICOM PatientSex as received: M, F, O or empty. */
    sex: text('sex'),
    birthDate: date('birth_date', { mode: 'string' }),
    phone: text('phone'),
    email: text('email'),
    /** Lower-cased, unaccented name + identifier for GET /user/patients?search (pg_trgm). */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(ris_unaccent(coalesce(name, '') || ' ' || coalesce(patient_identifier, '')))`,
      ),
    /**
     * Set when this record was merged into another record of the same person (POST
     * /user/patient/{id}/merge): its studies moved there, and the row stays so nothing is lost.
     */
    mergedIntoId: uuid('merged_into_id').references((): AnyPgColumn => patients.id, {
      onDelete: 'restrict',
    }),
    mergedAt: timestamptz('merged_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('patients_facility_identifier_uq').on(t.facilityId, t.patientIdentifier),
    index('patients_organisation_identifier_idx').on(t.organisationId, t.patientIdentifier),
    index('patients_facility_name_idx').on(t.facilityId, t.name),
    index('patients_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('patients_merged_into_idx')
      .on(t.mergedIntoId)
      .where(sql`${t.mergedIntoId} is not null`),
  ],
);
