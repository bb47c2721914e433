import { ZDeletedResponse, ZErrorBody, ZRecording, ZUuid, ZVoiceDataFields } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertActingAs } from '../../../access/acting-as.ts';
import { requirePrincipal } from '../../../access/require-principal.ts';
import { loadScope } from '../../../access/scope.ts';
import { sendStoredFile } from '../../../files/send-stored-file.ts';
import { findStoredFile, sniffMediaType } from '../../../files/stored-files.ts';
import { checkUploads } from '../../../files/upload-checks.ts';
import { AppError } from '../../../http/app-error.ts';
import { ZErrorResponses } from '../../../http/openapi-errors.ts';
import { parseFields, readForm, registerMultipart } from '../../../http/multipart.ts';
import { dictationRecordings } from '../../../db/schema/index.ts';
import {
  audioKindOf,
  authorizeRecordingDelete,
  authorizeRecordingEdit,
  createRecording,
  findRecording,
  listRecordings,
  presentRecording,
  RECORDING_FORM_LIMITS,
  recordingInfo,
  recordingTarget,
  requireVisibleRecording,
} from './recordings.ts';
import { removeRecordings } from './remove-recordings.ts';
import { ensureRetentionChain } from './retention-job.ts';

const security = [{ bearerAuth: [] }];
const tags = ['dictation'];
const params = z.object({ id: ZUuid });

/**
 * Recorded dictations (§7 /worklist/augnito/voice-data): upload (editors of the report), list and
 * listen (the report's readers), mark inserted (editors), delete (author or admin). Another
 * organisation's report or recording is 404 to everyone.
 */
export const recordingRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerMultipart(app, RECORDING_FORM_LIMITS);
  const { db } = app.deps.database;
  const { blobs } = app.deps;
  const announce = (target: { report: { id: string; organisationId: string; studyId: string } }) =>
    app.events.emit('dictation.recordings.changed', {
      organisationId: target.report.organisationId,
      reportId: target.report.id,
      studyId: target.report.studyId,
    });

  app.post(
    '/worklist/augnito/voice-data',
    {
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        summary: 'Upload a recorded dictation to be transcribed into a report',
        description:
          'Multipart: file (WAV 8/16-bit PCM at any rate, or Opus in WebM or Ogg as browsers record it; mono or stereo; checked by content; at most 50 MB and 20 minutes), report_id or worklist_id, by_user_id (the caller). Answers 202: the recording is transcribed by a job, then inserted into the report if an editor has it open, else offered in the reporting screen.',
        response: {
          202: ZRecording,
          ...ZErrorResponses,
          413: ZErrorBody.describe('file: over 50 MB or 20 minutes'),
          415: ZErrorBody.describe('file: not a WAV, WebM or Ogg (Opus) recording by its content'),
        },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const form = await readForm(request, RECORDING_FORM_LIMITS);
      const fields = parseFields(ZVoiceDataFields, form.fields);
      assertActingAs(scope.principal, fields.by_user_id);
      const target = await recordingTarget(db, scope, fields);
      authorizeRecordingEdit(scope, target);
      await checkUploads(form.files, RECORDING_FORM_LIMITS);
      const [file] = form.files;
      if (!file) throw new AppError('VALIDATION_FAILED', 'file: choose a recording', { field: 'file' });
      const { contentType, durationSeconds } = recordingInfo(file, (await sniffMediaType(file.data)) ?? '');
      const settings = await app.dictation.engines.settingsOf(db, scope.organisationId);
      const id = await db.transaction((tx) =>
        createRecording(tx, blobs, {
          scope,
          target,
          file,
          contentType,
          durationSeconds,
          retentionDays: settings.recordingRetentionDays,
        }),
      );
      const row = await findRecording(db, scope.organisationId, id);
      if (!row) throw AppError.notFound('Recording');
      announce(target);
      // The retention passes start with the first recording (a failure here waits for the next start).
      await ensureRetentionChain(db).catch((error: unknown) =>
        request.log.error({ err: error }, 'could not start the recording retention passes'),
      );
      return reply.status(202).send(presentRecording(row));
    },
  );

  app.get(
    '/worklist/augnito/voice-data',
    {
      schema: {
        tags,
        security,
        summary: "A report's recorded dictations (its readers), oldest first",
        querystring: z.object({ report_id: ZUuid }),
        response: { 200: z.array(ZRecording), ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const target = await recordingTarget(db, scope, { report_id: request.query.report_id });
      return listRecordings(db, target.report.id);
    },
  );

  app.get(
    '/worklist/augnito/voice-data/:id/audio',
    {
      schema: {
        tags,
        security,
        summary: "A recorded dictation's audio (the report's readers)",
        params,
        response: { ...ZErrorResponses },
      },
    },
    async (request, reply) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const { row } = await requireVisibleRecording(db, scope, request.params.id);
      const file = await findStoredFile(db, row.recording.fileId);
      if (!file) throw AppError.notFound('Recording');
      const extension = audioKindOf(row.recording.contentType);
      return sendStoredFile(reply, blobs, file, `dictation-${row.recording.id}.${extension}`);
    },
  );

  app.put(
    '/worklist/augnito/voice-data/:id/inserted',
    {
      schema: {
        tags,
        security,
        summary: "Mark a recording's transcript as inserted into the report (its editors)",
        params,
        response: { 200: ZRecording, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const { target } = await requireVisibleRecording(db, scope, request.params.id);
      authorizeRecordingEdit(scope, target);
      await db
        .update(dictationRecordings)
        .set({ inserted: true })
        .where(
          and(
            eq(dictationRecordings.id, request.params.id),
            eq(dictationRecordings.organisationId, scope.organisationId),
          ),
        );
      const row = await findRecording(db, scope.organisationId, request.params.id);
      if (!row) throw AppError.notFound('Recording');
      announce(target);
      return presentRecording(row);
    },
  );

  app.delete(
    '/worklist/augnito/voice-data/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a recorded dictation and its audio (its author or an administrator)',
        params,
        response: { 200: ZDeletedResponse, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const { row, target } = await requireVisibleRecording(db, scope, request.params.id);
      authorizeRecordingDelete(scope, row.recording);
      await removeRecordings(
        db,
        blobs,
        and(
          eq(dictationRecordings.id, row.recording.id),
          eq(dictationRecordings.organisationId, scope.organisationId),
        ) ?? eq(dictationRecordings.id, row.recording.id),
      );
      announce(target);
      return { deleted: true as const, id: row.recording.id };
    },
  );
};
