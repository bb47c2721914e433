// Image archives (PACS) an organisation connects: where studies come from and where the viewer,
// the study download and the delete read and write. Secrets are stored sealed (security/secret-box).
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { primaryId, timestamps, timestamptz } from './columns.ts';
import { facilities, organisations } from './organisations.ts';

/**
 * One archive. `kind` 'orthanc' syncs from Orthanc's /changes feed (orthanc_url is its REST root);
 * 'dicomweb' polls QIDO-RS by date window. dicomweb_url is the DICOMweb root (QIDO/WADO/STOW).
 */
export const pacsArchives = pgTable(
  'pacs_archives',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    /** 'orthanc' | 'dicomweb' (TPacsArchiveKind in @ris/domain). */
    kind: text('kind').notNull(),
    dicomwebUrl: text('dicomweb_url').notNull(),
    orthancUrl: text('orthanc_url'),
    /** 'none' | 'basic' | 'bearer'. */
    authKind: text('auth_kind').notNull().default('none'),
    username: text('username'),
    /** The password (basic) or token (bearer), sealed with the server's secret key; never sent out. */
    secretSealed: text('secret_sealed'),
    /** Where a study goes when its institution name matches none of the archive's facilities. */
    defaultFacilityId: uuid('default_facility_id').references(() => facilities.id, { onDelete: 'set null' }),
    enabled: boolean('enabled').notNull().default(true),
    pollIntervalSeconds: integer('poll_interval_seconds').notNull().default(10),
    /** Orthanc: the last /changes sequence number applied (resume point after a restart). */
    changesCursor: bigint('changes_cursor', { mode: 'number' }),
    /** DICOMweb: studies up to this time were polled (the next window starts a little before). */
    polledUntil: timestamptz('polled_until'),
    lastSyncAt: timestamptz('last_sync_at'),
    lastSuccessAt: timestamptz('last_success_at'),
    lastError: text('last_error'),
    lastErrorAt: timestamptz('last_error_at'),
    /** Consecutive failed syncs (drives the back-off; 0 after a success). */
    failureCount: integer('failure_count').notNull().default(0),
    ...timestamps(),
  },
  (t) => [index('pacs_archives_organisation_idx').on(t.organisationId, t.name)],
);

/**
 * The facilities an archive serves. institution_name, when set, is the DICOM InstitutionName that
 * sends a study to this facility (otherwise the facility's own name is compared, case-insensitively).
 */
export const pacsArchiveFacilities = pgTable(
  'pacs_archive_facilities',
  {
    archiveId: uuid('archive_id')
      .notNull()
      .references(() => pacsArchives.id, { onDelete: 'cascade' }),
    facilityId: uuid('facility_id')
      .notNull()
      .references(() => facilities.id, { onDelete: 'cascade' }),
    institutionName: text('institution_name'),
  },
  (t) => [
    primaryKey({ columns: [t.archiveId, t.facilityId] }),
    index('pacs_archive_facilities_facility_idx').on(t.facilityId),
    index('pacs_archive_facilities_institution_idx').on(sql`lower(${t.institutionName})`),
  ],
);
