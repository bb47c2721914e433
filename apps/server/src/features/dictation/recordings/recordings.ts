// Recorded dictations (issue 17, §7 POST /worklist/augnito/voice-data): the audio is kept with its
// report for the transcriptionist, and transcribed by a durable job (transcribe-job.ts). Access
// follows the report: its readers list and play the recordings, its editors record and insert them,
// and a recording is removed by its author or an administrator.
import { RECORDING_MAX_BYTES, RECORDING_MAX_SECONDS, type TRecording } from '@ris/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TDb, TDbOrTx, TTx } from '../../../db/client.ts';
import { dictationRecordings, users } from '../../../db/schema/index.ts';
import type { BlobStore } from '../../../files/blob-store.ts';
import { storeFile } from '../../../files/stored-files.ts';
import { AppError } from '../../../http/app-error.ts';
import type { TFormLimits, TUpload } from '../../../http/multipart.ts';
import { enqueueJob } from '../../../jobs/jobs.ts';
import { reportAccessFor } from '../../reports/report.policy.ts';
import {
  findVisibleStudyReport,
  requireReadableReport,
  type TVisibleReport,
} from '../../reports/report.queries.ts';
import { opusDurationSeconds, readOpus, type TOpusContainer } from './audio/opus.ts';
import { readWavInfo, WavError } from './audio/wav.ts';

export const TRANSCRIBE_QUEUE = 'dictation.transcribe';

/** The form of POST /worklist/augnito/voice-data: one audio file in the field `file`. */
export const RECORDING_FORM_LIMITS: TFormLimits = {
  noun: 'recording',
  // Ogg is recognised whatever its codec, so that Vorbis or FLAC is refused with a reason (recordingInfo).
  accept: ['audio/wav', 'audio/ogg; codecs=opus', 'audio/ogg', 'video/webm', 'audio/webm'],
  acceptLabel: 'WAV, WebM or Ogg',
  maxBytes: RECORDING_MAX_BYTES,
  maxFiles: 1,
  maxTotalBytes: RECORDING_MAX_BYTES,
  fileFields: ['file'],
  maxFields: 10,
};

/** The kinds of recording kept, by what their content is (sniffed), as the recording names them. */
export const RECORDING_TYPES: Readonly<Record<string, string>> = {
  'audio/wav': 'audio/wav',
  'video/webm': 'audio/webm',
  'audio/webm': 'audio/webm',
  'audio/ogg; codecs=opus': 'audio/ogg',
};

/** How a stored recording is decoded, from its content type. */
export function audioKindOf(contentType: string): 'wav' | TOpusContainer {
  return contentType === 'audio/webm' ? 'webm' : contentType === 'audio/ogg' ? 'ogg' : 'wav';
}

/**
 * The recording's content type and duration, checked by content: WAV (8/16-bit PCM, any rate and
 * channels), WebM or Ogg with Opus audio (mono or stereo), within RECORDING_MAX_SECONDS.
 */
export function recordingInfo(
  file: TUpload,
  mediaType: string,
): { contentType: string; durationSeconds: number } {
  const contentType = RECORDING_TYPES[mediaType];
  if (!contentType) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'file: only WAV (PCM) and Opus recordings (WebM or Ogg) are accepted',
      { field: 'file', detected: mediaType },
    );
  }
  let durationSeconds: number;
  try {
    const kind = audioKindOf(contentType);
    durationSeconds =
      kind === 'wav'
        ? readWavInfo(file.data).durationSeconds
        : opusDurationSeconds(readOpus(file.data, kind));
  } catch (error) {
    if (error instanceof WavError)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `file: ${error.message}`, { field: 'file' });
    throw error;
  }
  if (durationSeconds <= 0)
    throw new AppError('VALIDATION_FAILED', 'file: the recording holds no audio', { field: 'file' });
  if (durationSeconds > RECORDING_MAX_SECONDS)
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `file: a recording may last at most ${RECORDING_MAX_SECONDS / 60} minutes`,
      { field: 'file' },
    );
  return { contentType, durationSeconds };
}

/** The report a recording goes to: by report_id, or the report of the worklist item (404 when none). */
export async function recordingTarget(
  db: TDbOrTx,
  scope: TScope,
  fields: { report_id?: string | undefined; worklist_id?: string | undefined },
): Promise<TVisibleReport> {
  if (fields.report_id !== undefined) return requireReadableReport(db, scope, fields.report_id);
  const found = await findVisibleStudyReport(db, scope, fields.worklist_id ?? '');
  if (!found?.report) throw AppError.notFound('Report');
  return requireReadableReport(db, scope, found.report.id);
}

/** 403 unless the caller may edit the report now (record into it, mark a transcript inserted). */
export function authorizeRecordingEdit(scope: TScope, target: TVisibleReport): void {
  if (reportAccessFor(scope, target.study, target.report.status) !== 'edit')
    throw new AppError('FORBIDDEN', 'You may read this report but not dictate into it');
}

/** Stores the audio and the row, and enqueues its transcription (one transaction). */
export async function createRecording(
  tx: TTx,
  blobs: BlobStore,
  input: {
    scope: TScope;
    target: TVisibleReport;
    file: TUpload;
    contentType: string;
    durationSeconds: number;
    retentionDays: number;
  },
): Promise<string> {
  const { scope, target, file } = input;
  const stored = await storeFile(tx, blobs, {
    data: file.data,
    originalName: file.filename,
    organisationId: scope.organisationId,
    createdBy: scope.principal.userId,
    accept: Object.keys(RECORDING_TYPES),
    maxBytes: RECORDING_MAX_BYTES,
  });
  const [row] = await tx
    .insert(dictationRecordings)
    .values({
      organisationId: scope.organisationId,
      reportId: target.report.id,
      byUserId: scope.principal.userId,
      fileId: stored.id,
      durationSeconds: input.durationSeconds,
      contentType: input.contentType,
      expiresAt: sql`now() + make_interval(days => ${input.retentionDays}::int)`,
    })
    .returning({ id: dictationRecordings.id });
  if (!row) throw new Error('dictation_recordings insert returned nothing');
  await enqueueJob(tx, {
    queue: TRANSCRIBE_QUEUE,
    payload: { recording_id: row.id },
    idempotencyKey: `${TRANSCRIBE_QUEUE}:${row.id}`,
    maxAttempts: 3,
  });
  return row.id;
}

const recordingColumns = {
  recording: dictationRecordings,
  displayName: users.displayName,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};

type TRecordingRow = {
  recording: typeof dictationRecordings.$inferSelect;
  displayName: string;
  firstName: string;
  lastName: string;
  email: string;
};

export function presentRecording(row: TRecordingRow): TRecording {
  const { recording } = row;
  const name = row.displayName || [row.firstName, row.lastName].filter(Boolean).join(' ') || row.email;
  return {
    id: recording.id,
    report_id: recording.reportId,
    by_user_id: recording.byUserId,
    by_user_name: name,
    status:
      recording.status === 'TRANSCRIBED' || recording.status === 'FAILED' ? recording.status : 'PENDING',
    duration_seconds: Math.round(recording.durationSeconds * 10) / 10,
    content_type: recording.contentType,
    transcript: recording.transcript,
    error: recording.error,
    inserted: recording.inserted,
    created_at: recording.createdAt.toISOString(),
    expires_at: recording.expiresAt.toISOString(),
  };
}

/** The report's recordings, oldest first. */
export async function listRecordings(db: TDbOrTx, reportId: string): Promise<TRecording[]> {
  const rows = await db
    .select(recordingColumns)
    .from(dictationRecordings)
    .innerJoin(users, eq(users.id, dictationRecordings.byUserId))
    .where(eq(dictationRecordings.reportId, reportId))
    .orderBy(asc(dictationRecordings.createdAt), asc(dictationRecordings.id));
  return rows.map(presentRecording);
}

/** One recording of the organisation (null when none: another organisation's is not found either). */
export async function findRecording(db: TDbOrTx, organisationId: string, id: string) {
  const [row] = await db
    .select(recordingColumns)
    .from(dictationRecordings)
    .innerJoin(users, eq(users.id, dictationRecordings.byUserId))
    .where(and(eq(dictationRecordings.id, id), eq(dictationRecordings.organisationId, organisationId)));
  return row ?? null;
}

/**
 * A recording the caller may see: in their organisation and of a report they may read (404
 * otherwise), with that report.
 */
export async function requireVisibleRecording(db: TDb, scope: TScope, id: string) {
  const row = await findRecording(db, scope.organisationId, id);
  if (!row) throw AppError.notFound('Recording');
  let target: TVisibleReport;
  try {
    target = await requireReadableReport(db, scope, row.recording.reportId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw AppError.notFound('Recording');
    throw error;
  }
  return { row, target };
}

/** Who may delete a recording: its author or an administrator. */
export function authorizeRecordingDelete(scope: TScope, recording: { byUserId: string }): void {
  const { principal } = scope;
  if (principal.role !== 'ADMIN' && principal.userId !== recording.byUserId)
    throw new AppError('FORBIDDEN', 'Only the author of a recording or an administrator may delete it');
}
