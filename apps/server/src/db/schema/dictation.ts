// Dictation (issue 17): the speech engine an organisation chose, and recorded dictations kept with
// their report for the transcriptionist (features/dictation).
import { boolean, doublePrecision, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, primaryId, timestamptz } from './columns.ts';
import { storedFiles } from './files.ts';
import { organisations } from './organisations.ts';
import { reports } from './reports.ts';
import { users } from './users.ts';

/** One row per organisation that changed its speech settings; none means the defaults. */
export const organisationSpeechSettings = pgTable('organisation_speech_settings', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  /** TSpeechProvider: 'pocketsphinx' | 'augnito' | 'browser' | 'off'. */
  provider: text('provider').notNull(),
  augnitoServerUrl: text('augnito_server_url'),
  augnitoAccountCode: text('augnito_account_code'),
  augnitoLmId: text('augnito_lm_id'),
  /** Augnito's access key, sealed with the server's secret box (integrations/sealed-secrets.ts). */
  augnitoAccessKeySealed: text('augnito_access_key_sealed'),
  browserSpeechAllowed: boolean('browser_speech_allowed').notNull().default(false),
  recordingRetentionDays: integer('recording_retention_days').notNull().default(90),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/** A recorded dictation (POST /worklist/augnito/voice-data): its audio, and its transcript once made. */
export const dictationRecordings = pgTable(
  'dictation_recordings',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    byUserId: uuid('by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'restrict' }),
    /** TRecordingStatus: 'PENDING' | 'TRANSCRIBED' | 'FAILED'. */
    status: text('status').notNull().default('PENDING'),
    durationSeconds: doublePrecision('duration_seconds').notNull(),
    contentType: text('content_type').notNull(),
    transcript: text('transcript'),
    /** Why transcription failed, in words for the user. */
    error: text('error'),
    inserted: boolean('inserted').notNull().default(false),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    index('dictation_recordings_report_idx').on(t.reportId, t.createdAt),
    index('dictation_recordings_expires_idx').on(t.expiresAt),
  ],
);
