// Organisations (a teleradiology group) and their facilities (client hospitals and imaging centres).
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { primaryId, timestamps } from './columns.ts';
import { recordStatusEnum } from './enums.ts';
import { storedFiles } from './files.ts';

/** Report layout settings; the API sends them as serialized JSON text, stored parsed. */
export type TReportStyle = Record<string, unknown>;

export const organisations = pgTable(
  'organisations',
  {
    id: primaryId(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    reportStyle: jsonb('report_style').$type<TReportStyle>(),
    /** IANA time zone a facility without its own uses for dates in documents (e.g. 'Asia/Kolkata'). */
    timeZone: text('time_zone').notNull().default('UTC'),
    /**
     * Turnaround targets (minutes from arrival to FINAL per priority tag, @ris/domain
     * ZTurnaroundTargets), stored complete; null: the defaults (DEFAULT_TURNAROUND_TARGETS).
     */
    turnaroundTargets: jsonb('turnaround_targets').$type<Record<string, unknown>>(),
    status: recordStatusEnum('status').notNull().default('ACTIVE'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('organisations_slug_uq').on(sql`lower(${t.slug})`)],
);

/**
 * A facility of an organisation. parent_facility_id makes child facilities (the organisation details
 * answer lists all_facilities and child_facility_ids). Deactivate instead of deleting: studies,
 * patients and users restrict deletion.
 */
export const facilities = pgTable(
  'facilities',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    parentFacilityId: uuid('parent_facility_id').references((): AnyPgColumn => facilities.id, {
      onDelete: 'restrict',
    }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    address: text('address'),
    phone: text('phone'),
    email: text('email'),
    /** IANA time zone of the facility's dates (e.g. 'Asia/Kolkata'); null inherits the organisation's. */
    timeZone: text('time_zone'),
    status: recordStatusEnum('status').notNull().default('ACTIVE'),
    letterheadEnabled: boolean('letterhead_enabled').notNull().default(false),
    /**
     * The facility's own image node on its network, as the root of its OHIF viewer (e.g. Orthanc's
     * OHIF plugin, https://10.0.0.5:8443/ohif): workstations that reach it open studies there.
     */
    localNodeUrl: text('local_node_url'),
    letterheadHeaderFileId: uuid('letterhead_header_file_id').references((): AnyPgColumn => storedFiles.id, {
      onDelete: 'set null',
    }),
    letterheadFooterFileId: uuid('letterhead_footer_file_id').references((): AnyPgColumn => storedFiles.id, {
      onDelete: 'set null',
    }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('facilities_organisation_code_uq').on(t.organisationId, t.code),
    index('facilities_organisation_name_idx').on(t.organisationId, t.name),
    index('facilities_parent_idx')
      .on(t.parentFacilityId)
      .where(sql`${t.parentFacilityId} is not null`),
  ],
);
