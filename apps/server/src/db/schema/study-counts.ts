// The worklist's count rollups: how many studies each (facility or organisation, UTC day of
// created_at, status, modality group, priority tag) holds, plus the deltas appended by triggers on
// `studies` in the transaction of every change (migration 0014, ris_study_counts_apply): a count over any
// range of whole days is a sum over these rows, exact, whatever the archive's size; the partial days
// at a range's edges are counted from `studies` (features/worklist/list/worklist-rollup.ts).
import { date, index, integer, pgTable, unique, uuid } from 'drizzle-orm/pg-core';
import { modalityGroupEnum, priorityTagEnum, studyStatusEnum } from './enums.ts';

/** The key after the facility or organisation, and the count: the same in the three tables. */
const countedColumns = () => ({
  /** created_at's date in UTC. */
  day: date('day', { mode: 'string' }).notNull(),
  status: studyStatusEnum('status').notNull(),
  modalityGroup: modalityGroupEnum('modality_group'),
  priorityTag: priorityTagEnum('priority_tag'),
  /** Rollups: the studies of the key; deltas: + for studies that entered it, − for those that left. */
  studyCount: integer('study_count').notNull(),
});

/** Per facility (staff at some facilities, any facility_ids filter). */
export const studyFacilityDayCounts = pgTable(
  'study_facility_day_counts',
  {
    organisationId: uuid('organisation_id').notNull(),
    facilityId: uuid('facility_id').notNull(),
    ...countedColumns(),
  },
  (t) => [
    unique('study_facility_day_counts_key')
      .on(t.facilityId, t.day, t.status, t.modalityGroup, t.priorityTag)
      .nullsNotDistinct(),
  ],
);

/** Per organisation (admins over every facility): a few rows a day whatever the facilities. */
export const studyOrganisationDayCounts = pgTable(
  'study_organisation_day_counts',
  {
    organisationId: uuid('organisation_id').notNull(),
    ...countedColumns(),
  },
  (t) => [
    unique('study_organisation_day_counts_key')
      .on(t.organisationId, t.day, t.status, t.modalityGroup, t.priorityTag)
      .nullsNotDistinct(),
  ],
);

/**
 * What the studies' triggers appended since the last compaction (worklist-rollup-compaction.ts folds
 * them into the two tables above): counts read rollup + deltas. Append-only, so writers never wait
 * for each other on a busy key.
 */
export const studyCountDeltas = pgTable(
  'study_count_deltas',
  {
    organisationId: uuid('organisation_id').notNull(),
    facilityId: uuid('facility_id').notNull(),
    ...countedColumns(),
  },
  (t) => [index('study_count_deltas_organisation_day_idx').on(t.organisationId, t.day)],
);
