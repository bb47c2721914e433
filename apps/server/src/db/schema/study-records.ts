// What a study keeps beside its row: its status history and the patient documents attached to it.
import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, primaryId } from './columns.ts';
import { studyStatusEnum } from './enums.ts';
import { storedFiles } from './files.ts';
import { studies } from './studies.ts';
import { users } from './users.ts';

/** Every status change of a study: who, when, from, to (served by GET /worklist/statuses/{id}). */
export const studyStatusHistory = pgTable(
  'study_status_history',
  {
    id: primaryId(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    /** Null for the first entry (creation). */
    fromStatus: studyStatusEnum('from_status'),
    toStatus: studyStatusEnum('to_status').notNull(),
    /** Null when the system made the change (PACS import, a job). */
    changedBy: uuid('changed_by').references(() => users.id, { onDelete: 'restrict' }),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [index('study_status_history_study_created_idx').on(t.studyId, t.createdAt)],
);

/** Documents uploaded with a study (requisition forms, earlier reports): the spec's patient_documents. */
export const patientDocuments = pgTable(
  'patient_documents',
  {
    id: primaryId(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'restrict' }),
    filename: text('filename').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('patient_documents_study_idx').on(t.studyId, t.createdAt),
    index('patient_documents_file_idx').on(t.fileId),
  ],
);
