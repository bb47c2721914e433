// The worklist's count rollups: how many studies each (facility or organisation, or assignee and
// facility; UTC day of created_at, status, modality group, priority tag) holds, plus the deltas
// appended by triggers on `studies` in the transaction of every change (migrations 0014 and 0029,
// ris_study_counts_apply): a count over any range of whole days is a sum over these rows, exact,
// whatever the archive's size; the partial days at a range's edges are counted from `studies`
// (features/worklist/list/worklist-rollup.ts).
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

/**
 * Per assignee (last_assigned_user_id) and facility: a reporter's own list, a by_user_ids filter (the
 * facility scopes it to the caller's facilities). Studies nobody is assigned are not in it.
 */
export const studyAssigneeDayCounts = pgTable(
  'study_assignee_day_counts',
  {
    organisationId: uuid('organisation_id').notNull(),
    facilityId: uuid('facility_id').notNull(),
    lastAssignedUserId: uuid('last_assigned_user_id').notNull(),
    ...countedColumns(),
  },
  (t) => [
    unique('study_assignee_day_counts_key')
      .on(t.lastAssignedUserId, t.day, t.facilityId, t.status, t.modalityGroup, t.priorityTag)
      .nullsNotDistinct(),
  ],
);

/**
 * The assignee rollup's deltas, apart from study_count_deltas: an assignment (frequent) changes only
 * this key, and appends here only.
 */
export const studyAssigneeCountDeltas = pgTable(
  'study_assignee_count_deltas',
  {
    organisationId: uuid('organisation_id').notNull(),
    facilityId: uuid('facility_id').notNull(),
    lastAssignedUserId: uuid('last_assigned_user_id').notNull(),
    ...countedColumns(),
  },
  (t) => [index('study_assignee_count_deltas_user_day_idx').on(t.lastAssignedUserId, t.day)],
);
