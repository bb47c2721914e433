// Studies: the worklist items (imaging studies and orders); their status history and documents are in
// study-records.ts.
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { primaryId, timestamps, timestamptz } from './columns.ts';
import { modalityGroupEnum, priorityTagEnum, studyStatusEnum } from './enums.ts';
import { facilities, organisations } from './organisations.ts';
import { pacsArchives } from './pacs.ts';
import { patients } from './patients.ts';
import { referringPhysicians, users } from './users.ts';

/**
 * The filters every sort index holds after its sort key and id (worklist-page-walk.ts reads them
 * from the index alone): arrival, facility, status, modality group, priority, assignee.
 */
export const SORT_INDEX_FILTERS = [
  'createdAt',
  'facilityId',
  'status',
  'modalityGroup',
  'priorityTag',
  'lastAssignedUserId',
] as const;

/** Sort indexes led by the modality group (migration 0039): their column's values follow the modality. */
export const GROUP_LED_SORT_COLUMNS: readonly string[] = ['modality', 'study_description'];

type TKeyColumns = Record<
  | 'organisationId'
  | 'status'
  | 'modalityGroup'
  | 'priorityTag'
  | 'lastAssignedUserId'
  | 'updatedAt'
  | 'modality'
  | 'patientIdentifier'
  | 'studyDescription'
  | 'seriesCount'
  | 'patientName'
  | 'studyDatetime',
  AnyPgColumn
>;

/** The worklist's sort keys but arrival: a page sorted by one collects its matches from an index. */
const sortKeys = (t: TKeyColumns) => [
  t.updatedAt,
  t.modality,
  t.patientIdentifier,
  t.studyDescription,
  t.seriesCount,
  t.patientName,
  t.studyDatetime,
];

/** The filters a page checks on an index led by the facility, then the sort keys. */
const filterAndSortKeys = (t: TKeyColumns) => [
  t.organisationId,
  t.status,
  t.modalityGroup,
  t.priorityTag,
  t.lastAssignedUserId,
  ...sortKeys(t),
];

/**
 * One worklist item. The patient and referring-physician columns are copied here so the worklist
 * filters, sorts and searches one table without joins; they are rewritten whenever the source
 * changes. A deleted study keeps its row with status DELETED and deleted_at set.
 */
export const studies = pgTable(
  'studies',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    /** The spec's facility_fk. */
    facilityId: uuid('facility_id')
      .notNull()
      .references(() => facilities.id, { onDelete: 'restrict' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'restrict' }),
    /** DICOM Study Instance UID; null for an ORDERED order until it is activated. */
    studyUid: text('study_uid'),
    /** Accession number from the facility, or a generated 'SM' + 8 characters identifier. */
    accessionNumber: text('accession_number').notNull(),
    /**
     * Set on a copy made by POST /worklist/duplicate (one DICOM study reported as two items, e.g. chest
     * and abdomen): copies share the original's study_uid and accession_number.
     */
    duplicatedFromStudyId: uuid('duplicated_from_study_id').references((): AnyPgColumn => studies.id, {
      onDelete: 'set null',
    }),
    patientName: text('patient_name').notNull().default(''),
    /** The spec's patient_id column of the worklist (the MRN). */
    patientIdentifier: text('patient_identifier').notNull().default(''),
    patientSex: text('patient_sex'),
    patientBirthDate: date('patient_birth_date', { mode: 'string' }),
    /** Raw DICOM modality string as received, e.g. 'CT,SR'. */
    modality: text('modality'),
    /** Group of `modality` (modalityGroupOf in @ris/domain); null when it belongs to none. */
    modalityGroup: modalityGroupEnum('modality_group'),
    /** The worklist's 'study' column (DICOM StudyDescription). */
    studyDescription: text('study_description'),
    bodyPart: text('body_part'),
    studyDatetime: timestamptz('study_datetime'),
    seriesCount: integer('series_count').notNull().default(0),
    instanceCount: integer('instance_count').notNull().default(0),
    status: studyStatusEnum('status').notNull().default('ORDERED'),
    priorityTag: priorityTagEnum('priority_tag'),
    /** The spec's last_assigned_user_fk: the radiologist the study is assigned to. */
    lastAssignedUserId: uuid('last_assigned_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    assignedAt: timestamptz('assigned_at'),
    referringPhysicianId: uuid('referring_physician_id').references(() => referringPhysicians.id, {
      onDelete: 'set null',
    }),
    referringPhysicianName: text('referring_physician_name'),
    clinicalHistory: text('clinical_history'),
    collaborationEnabled: boolean('collaboration_enabled').notNull().default(false),
    /** The archive the study's images are in (null: typed in, or the PACS_DICOMWEB_URL default). */
    pacsArchiveId: uuid('pacs_archive_id').references((): AnyPgColumn => pacsArchives.id, {
      onDelete: 'set null',
    }),
    /** The archive's own id of the study (Orthanc's study id), for its REST calls. */
    archiveStudyKey: text('archive_study_key'),
    /** When the archive reported the study gone (the item is kept, marked). */
    archiveDeletedAt: timestamptz('archive_deleted_at'),
    /** Null for studies that arrived from the PACS rather than from a user. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'restrict' }),
    deletedAt: timestamptz('deleted_at'),
    deletedBy: uuid('deleted_by').references(() => users.id, { onDelete: 'restrict' }),
    /**
     * When the turnaround-breach job notified that the study passed its target (features/home):
     * set in the transaction that creates the notifications, so each study notifies once.
     */
    turnaroundBreachNotifiedAt: timestamptz('turnaround_breach_notified_at'),
    ...timestamps(),
    /**
     * Lower-cased, unaccented patient name, patient id, accession and study description for the
     * worklist `search` (substring, `LIKE '%' || lower(ris_unaccent($1)) || '%'`, served by pg_trgm).
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(ris_unaccent(coalesce(patient_name, '') || ' ' || coalesce(patient_identifier, '') || ' ' || coalesce(accession_number, '') || ' ' || coalesce(study_description, '')))`,
      ),
  },
  (t) => [
    // Identity. Originals are unique per organisation (study_uid) and per facility (accession: each
    // hospital issues its own); duplicates (duplicated_from_study_id set) repeat them. PACS import
    // upserts with ON CONFLICT (organisation_id, study_uid) WHERE duplicated_from_study_id IS NULL.
    uniqueIndex('studies_organisation_study_uid_uq')
      .on(t.organisationId, t.studyUid)
      .where(sql`${t.duplicatedFromStudyId} is null`),
    uniqueIndex('studies_facility_accession_uq')
      .on(t.facilityId, t.accessionNumber)
      .where(sql`${t.duplicatedFromStudyId} is null`),
    // Worklist (GET /worklist, GET /worklist/status/count), planned for ~1,000,000 rows. Every query
    // is scoped by facility_ids IN (...) (admins: all facilities of the organisation) or by
    // organisation, and sorted by created_at desc, id desc unless sort_by says otherwise.
    // Indexes are ascending on purpose: a btree read backwards serves ORDER BY x DESC (= DESC NULLS
    // FIRST), while Drizzle's .desc() emits DESC NULLS LAST, which a plain DESC sort cannot use.
    // Trailing id: a small page collects its matches' ids and sort keys from an index alone.
    // Trailing columns (status, organisation_id, …) are there so the counts (GET /worklist total and
    // /worklist/status/count) are index-only scans: every worklist query has organisation_id = $org
    // and status IN (...) besides its filters, and a count that visits the heap costs ~2 µs a row.
    // - default list and date range on created_at: facility_id IN + created_at range + order/limit;
    //   and the matches of a page sorted by another column, collected (a staff member's week) from the
    //   index alone: the filters and every sort key trail (migration 0035; reading each match's row
    //   for its sort key cost 5 µs a match, 20 ms for a radiologist's week of 3,800)
    index('studies_facility_created_idx').on(t.facilityId, t.createdAt, t.id, ...filterAndSortKeys(t)),
    // - the same scoped by organisation only (admin without a facility filter), and its counts (the
    //   partial days at a range's edges, beside the rollup): status, modality group and priority are
    //   checked on the index, so a filtered page's ids are read from it alone
    index('studies_organisation_created_idx').on(
      t.organisationId,
      t.createdAt,
      t.id,
      t.status,
      t.modalityGroup,
      t.priorityTag,
    ),
    // - an admin's modality filter on a page sorted by another column: the matches collected from the
    //   index alone (migration 0038; reading each one's row for its sort key: 150-370 ms for a month)
    index('studies_organisation_modality_created_idx').on(
      t.organisationId,
      t.modalityGroup,
      t.createdAt,
      t.id,
      t.facilityId,
      t.status,
      t.priorityTag,
      t.lastAssignedUserId,
      ...sortKeys(t),
    ),
    // - statuses IN (...) (status tabs) and the per-status counts
    index('studies_facility_status_created_idx').on(
      t.facilityId,
      t.status,
      t.createdAt,
      t.organisationId,
      t.id,
    ),
    // - modalities filter (groups, stored in modality_group)
    index('studies_facility_modality_created_idx').on(
      t.facilityId,
      t.modalityGroup,
      t.createdAt,
      t.status,
      t.organisationId,
      t.id,
    ),
    // - by_user_ids (a radiologist's or reporter's own list): last_assigned_user_id IN (...)
    //   (id after created_at: a page's ids are read in order from the index alone, status, facility,
    //   modality and priority checked on it; the same columns keep the partial days an assignee's
    //   counts add to the assignee rollup, study_assignee_day_counts, index-only)
    index('studies_assigned_user_created_idx')
      .on(
        t.lastAssignedUserId,
        t.createdAt,
        t.id,
        t.facilityId,
        t.status,
        t.organisationId,
        t.modalityGroup,
        t.priorityTag,
        ...sortKeys(t),
      )
      .where(sql`${t.lastAssignedUserId} is not null`),
    // - priority_tags (an admin's page and edge counts by organisation; 5 % of studies are tagged)
    index('studies_organisation_priority_created_idx')
      .on(t.organisationId, t.priorityTag, t.createdAt, t.id, t.status, t.modalityGroup)
      .where(sql`${t.priorityTag} is not null`),
    // - priority_tags within facilities (staff, or a facility filter): facility_id IN + tag IN
    index('studies_facility_priority_created_idx')
      .on(t.facilityId, t.priorityTag, t.createdAt, t.id, t.status)
      .where(sql`${t.priorityTag} is not null`),
    // - sorted by a column header but arrival (patient name, study date, last update, modality,
    //   patient id, study, status, priority, series count): walked in that order within the
    //   organisation when the matches are too many to collect, with every filter but a search
    //   checked on the index (arrival, facility, status, modality group, priority, assignee), so an
    //   admin reads a page's worth of entries and staff about a page's worth over the share of the
    //   organisation they see (migrations 0034, 0036); the modality's and the study description's
    //   led by the modality group (0039), walked one scan per group
    ...(
      [
        ['patient_name', t.patientName],
        ['study_datetime', t.studyDatetime],
        ['updated_at', t.updatedAt],
        ['modality', t.modality],
        ['patient_identifier', t.patientIdentifier],
        ['study_description', t.studyDescription],
        ['status', t.status],
        ['priority_tag', t.priorityTag],
        ['series_count', t.seriesCount],
      ] as const
    ).map(([name, column]) => {
      const led = GROUP_LED_SORT_COLUMNS.includes(name) ? [t.modalityGroup] : [];
      const filters = SORT_INDEX_FILTERS.map((key) => t[key]).filter((key) => key !== column);
      return index(`studies_organisation_${name}_sort_idx`).on(
        t.organisationId,
        ...led,
        column,
        t.id,
        ...filters.filter((filter) => !led.includes(filter)),
      );
    }),
    // - an admin's range of arrival sorted by study date or last update (a month oldest first): the
    //   same keyed by the UTC day of arrival (migrations 0037, 0040), each day read in that order up
    //   to the page's end and the days merged (arrivalDayWalkSql); the sort index read from its start
    //   met every study that arrived before the range first (collecting a month: 150-190 ms)
    ...([t.studyDatetime, t.updatedAt] as const).map((column) =>
      index(`studies_organisation_arrival_day_${column.name}_idx`).on(
        t.organisationId,
        sql`ris_arrival_day(${t.createdAt})`,
        column,
        t.id,
        ...SORT_INDEX_FILTERS.map((key) => t[key]),
      ),
    ),
    // - studies last updated before they arrived (a clock behind PostgreSQL's), read beside a walk
    //   of the last-update sort index from a range's start (0044, worklist-page-walk.ts)
    index('studies_organisation_updated_before_arrival_idx')
      .on(t.organisationId, t.createdAt, t.updatedAt, t.id)
      .where(sql`${t.updatedAt} < ${t.createdAt}`),
    // - search: substring of search_text (trigram GIN), without GIN's pending list (every search
    //   scanned the updates' keys there: 18 ms instead of 9 after a few thousand)
    index('studies_search_trgm_idx')
      .using('gin', t.searchText.op('gin_trgm_ops'))
      .with({ fastupdate: 'off' }),
    // - search within a date range: the same trigrams and the digit grams (0046) keyed by the week of
    //   created_at (0005, 0047)
    index('studies_search_week_idx')
      .using('gin', sql`ris_search_week_keys(${t.searchText}, ${t.createdAt})`)
      .with({ fastupdate: 'off' }),
    // - search over all dates (or many weeks) in a few facilities: keyed by the facility (0030)
    index('studies_search_facility_idx')
      .using('gin', sql`ris_search_facility_keys(${t.searchText}, ${t.facilityId})`)
      .with({ fastupdate: 'off' }),
    // - a text a modality filter makes rare ("chest" with MRI): the same trigrams keyed by the modality
    //   group (migration 0041; features/worklist/list/worklist-search-modality.ts)
    index('studies_search_modality_idx')
      .using('gin', sql`ris_search_modality_keys(${t.searchText}, ${t.modalityGroup})`)
      .with({ fastupdate: 'off' }),
    // - a text without three ASCII letters or digits in a row ("xu", "李明", "q"), which no trigram key
    //   holds: the pairs of characters of search_text (migration 0031) and its single characters
    //   (0045, ris_search_pair_keys)
    index('studies_search_pair_idx')
      .using('gin', sql`ris_search_pair_keys(${t.searchText})`)
      .with({ fastupdate: 'off' }),
    // - an identifier's text (an MRN, an accession, a prefix or part of one): the five characters in a
    //   row holding a digit of each word (migration 0046, features/worklist/list/worklist-search-grams.ts)
    index('studies_search_digit_idx')
      .using('gin', sql`ris_search_digit_grams(${t.searchText})`)
      .with({ fastupdate: 'off' }),
    // - a search in the open studies' tabs (Ordered, In progress): their trigrams and pairs (0042)
    index('studies_search_open_idx')
      .using('gin', sql`ris_search_open_keys(${t.searchText})`)
      .with({ fastupdate: 'off' })
      .where(sql`${t.status} not in ('FINAL', 'DELETED')`),
    // Home (features/home): the open studies (not FINAL or DELETED, a small share) for the waiting
    // counts, unassigned by priority, workload and breaches, read from the index alone.
    index('studies_open_organisation_created_idx')
      .on(t.organisationId, t.createdAt, t.id, t.facilityId, t.status, t.priorityTag, t.lastAssignedUserId)
      .where(sql`${t.status} not in ('FINAL', 'DELETED')`),
    // - the breaches, most overdue first: one ordered scan per tag (due = arrival + the tag's target)
    index('studies_open_organisation_priority_created_idx')
      .on(t.organisationId, t.priorityTag, t.createdAt, t.id, t.facilityId)
      .where(sql`${t.status} not in ('FINAL', 'DELETED')`),
    // - the waiting counts: open studies per facility and status (few keys, deduplicated: small)
    index('studies_open_organisation_facility_status_idx')
      .on(t.organisationId, t.facilityId, t.status)
      .where(sql`${t.status} not in ('FINAL', 'DELETED')`),
    // - unassigned by priority: TO_READ studies nobody is assigned to
    index('studies_unassigned_organisation_priority_idx')
      .on(t.organisationId, t.priorityTag, t.facilityId)
      .where(sql`${t.status} = 'TO_READ' and ${t.lastAssignedUserId} is null`),
    // - the workload: open studies of each radiologist
    index('studies_open_assigned_organisation_user_idx')
      .on(t.organisationId, t.lastAssignedUserId, t.status, t.facilityId)
      .where(sql`${t.lastAssignedUserId} is not null and ${t.status} not in ('FINAL', 'DELETED')`),
    // - the breach job's candidates: open studies not notified yet (they leave once notified)
    index('studies_turnaround_unnotified_idx')
      .on(t.organisationId, t.createdAt)
      .where(sql`${t.turnaroundBreachNotifiedAt} is null and ${t.status} not in ('FINAL', 'DELETED')`),
    // Foreign keys looked up or cascaded from the other side.
    index('studies_patient_idx').on(t.patientId),
    index('studies_referring_physician_idx')
      .on(t.referringPhysicianId)
      .where(sql`${t.referringPhysicianId} is not null`),
    index('studies_pacs_archive_idx')
      .on(t.pacsArchiveId)
      .where(sql`${t.pacsArchiveId} is not null`),
    index('studies_duplicated_from_idx')
      .on(t.duplicatedFromStudyId)
      .where(sql`${t.duplicatedFromStudyId} is not null`),
  ],
);
