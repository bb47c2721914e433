// Reports: one report document per study, its saved versions and addenda, images and signatures.
import { sql } from 'drizzle-orm';
import { boolean, char, index, integer, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, primaryId, timestamps, timestamptz, tsvector } from './columns.ts';
import { priorityTagEnum, reportStatusEnum, reportVersionKindEnum } from './enums.ts';
import { storedFiles } from './files.ts';
import { organisations } from './organisations.ts';
import { studies } from './studies.ts';
import { users } from './users.ts';

/**
 * The report of a study. `content` is the sanitised HTML; `content_text` its plain text (addenda are
 * appended to it by addAddendum, so they are searched too), from which the report finder's
 * `search_vector` is generated: English stems of the accent-folded text at weight A ("effusions"
 * finds "effusion", "oedème" finds "oedeme") and its unstemmed words at weight B (stop words,
 * other scripts' words as written). The configurations ris_english and ris_simple (migration 0022)
 * fold accents with the unaccent dictionary, so ts_headline over the original text agrees. `ydoc_state` is the Yjs document of a
 * collaborative session (the HTML stays the source of truth for everything else).
 */
export const reports = pgTable(
  'reports',
  {
    id: primaryId(),
    studyId: uuid('study_id')
      .notNull()
      .unique('reports_study_uq')
      .references(() => studies.id, { onDelete: 'cascade' }),
    /** Copied from the study so the report finder is scoped without a join. */
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    /**
     * Copies of the study's arrival time, facility, priority tag and deletion, kept by triggers
     * (migration 0025: set on insert, updated when the study's change), so the report finder walks
     * an organisation's or a facility's reports newest first and the home's turnaround reads the
     * finals of a period without joining every study. Never written by the application: an insert
     * leaves them to the database (`default`), whose trigger copies them from the study.
     */
    studyCreatedAt: timestamptz('study_created_at')
      .notNull()
      .$defaultFn(() => sql`default`),
    facilityId: uuid('facility_id')
      .notNull()
      .$defaultFn(() => sql`default`),
    priorityTag: priorityTagEnum('priority_tag'),
    studyDeleted: boolean('study_deleted').notNull().default(false),
    status: reportStatusEnum('status').notNull().default('CREATED'),
    /** Latest version number; report_versions holds each saved one. */
    version: integer('version').notNull().default(1),
    content: text('content').notNull().default(''),
    contentText: text('content_text').notNull().default(''),
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('public.ris_english'::regconfig, coalesce(content_text, '')), 'A') || setweight(to_tsvector('public.ris_simple'::regconfig, coalesce(content_text, '')), 'B')`,
      ),
    ydocState: bytea('ydoc_state'),
    pdfFileId: uuid('pdf_file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    /**
     * The PDF produced at finalisation (without letterhead), never replaced: later PDFs (after an
     * addendum) go to pdf_file_id. final_pdf_sha256 is its hash, to prove copies unchanged.
     */
    finalPdfFileId: uuid('final_pdf_file_id').references(() => storedFiles.id, { onDelete: 'restrict' }),
    /** SHA-256 (hex) of the PDF produced at finalisation, to prove later copies unchanged. */
    finalPdfSha256: char('final_pdf_sha256', { length: 64 }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'restrict' }),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'restrict' }),
    finalizedBy: uuid('finalized_by').references(() => users.id, { onDelete: 'restrict' }),
    finalizedAt: timestamptz('finalized_at'),
    ...timestamps(),
  },
  (t) => [
    // Report finder: full-text match, scoped by organisation and listed by recency. Keys are written
    // at once rather than through GIN's pending list (as the study search indexes, migration 0020).
    index('reports_search_vector_idx').using('gin', t.searchVector).with({ fastupdate: false }),
    index('reports_organisation_updated_idx').on(t.organisationId, t.updatedAt),
    index('reports_organisation_status_updated_idx').on(t.organisationId, t.status, t.updatedAt),
    // Report finder: an organisation's or a facility's reports by study arrival, newest first.
    index('reports_organisation_arrival_idx').on(t.organisationId, t.studyCreatedAt, t.id),
    index('reports_facility_arrival_idx').on(t.facilityId, t.studyCreatedAt, t.id),
    // Home turnaround (features/home): finals of an organisation in a period, with what the
    // turnaround reads (arrival, priority, facility, deletion), or of one radiologist.
    index('reports_organisation_finalized_idx')
      .on(
        t.organisationId,
        t.finalizedAt,
        t.studyCreatedAt,
        t.priorityTag,
        t.facilityId,
        t.studyDeleted,
        t.status,
        t.studyId,
      )
      .where(sql`${t.finalizedAt} is not null`),
    // - the same per priority tag (one scan a tag, in the order percentile_cont groups them)
    index('reports_organisation_priority_finalized_idx')
      .on(t.organisationId, t.priorityTag, t.finalizedAt, t.studyCreatedAt, t.facilityId)
      .where(sql`${t.finalizedAt} is not null`),
    index('reports_finalized_by_idx')
      .on(t.finalizedBy, t.finalizedAt, t.studyId)
      .where(sql`${t.finalizedAt} is not null`),
  ],
);

/** A saved version of a report. A FINAL report changes only by an ADDENDUM; old versions are kept. */
export const reportVersions = pgTable(
  'report_versions',
  {
    id: primaryId(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    kind: reportVersionKindEnum('kind').notNull().default('EDIT'),
    content: text('content').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [unique('report_versions_report_version_uq').on(t.reportId, t.version)],
);

/** Key images attached to a report, in display order. */
export const reportImages = pgTable(
  'report_images',
  {
    id: primaryId(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'restrict' }),
    caption: text('caption'),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('report_images_report_position_idx').on(t.reportId, t.position),
    index('report_images_file_idx').on(t.fileId),
  ],
);

/** Radiologists who signed a report (the signature block; by-rad PDFs pick from these). */
export const reportSignatures = pgTable(
  'report_signatures',
  {
    id: primaryId(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    signedAt: timestamptz('signed_at').notNull().defaultNow(),
  },
  (t) => [
    unique('report_signatures_report_user_uq').on(t.reportId, t.userId),
    index('report_signatures_user_idx').on(t.userId),
  ],
);
