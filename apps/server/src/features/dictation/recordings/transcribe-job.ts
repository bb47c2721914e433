// The durable job that transcribes a recorded dictation: decode (worker thread) → stream through the
// organisation's engine → transcript stored → inserted into the report when an editor has it open,
// otherwise offered in the reporting screen. Failures the user can act on are kept on the recording.
import { DICTATION_SAMPLE_RATE, segmentsToText, type TDictationSegment } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client.ts';
import { dictationRecordings, reports, storedFiles } from '../../../db/schema/index.ts';
import type { DomainEvents } from '../../../events/domain-events.ts';
import type { BlobStore } from '../../../files/blob-store.ts';
import { SpeechEngineError, type SpeechProvider } from '../../../integrations/speech/speech-provider.ts';
import { PermanentJobError, type TJobHandler } from '../../../jobs/jobs.ts';
import type { TDictationServices } from '../dictation-services.ts';
import { readDictation, transcriptHtml, transcriptOf } from '../dictation-text.ts';
import { decodeRecording } from './audio/decode-audio.ts';
import { audioKindOf, TRANSCRIBE_QUEUE } from './recordings.ts';

export { TRANSCRIBE_QUEUE };

/** Audio goes to the engine in frames of half a second. */
const FRAME_BYTES = DICTATION_SAMPLE_RATE;

type TTranscribeDeps = {
  db: TDb;
  blobs: BlobStore;
  events: DomainEvents;
  services: () => TDictationServices;
};

/**
 * Streams PCM through an engine and answers the segments of its finals, in order. An aborted
 * `signal` (the server shutting down) drops the stream at once and rejects: the job is taken up
 * again later, by this replica or another.
 */
export async function transcribePcm(
  provider: SpeechProvider,
  pcm: Buffer,
  who: { organisationId: string; userId: string },
  signal?: AbortSignal,
): Promise<TDictationSegment[]> {
  const segments: TDictationSegment[] = [];
  let failed: SpeechEngineError | null = null;
  const stream = await provider.open({
    ...who,
    onPartial: () => undefined,
    onFinal: (text, given) => segments.push(...(given ?? readDictation(text, segmentsToText(segments)))),
    onError: (error) => {
      failed = error;
    },
  });
  // Aborted (the server shutting down): the stream is dropped at once, whatever the engine does.
  const stopped = () =>
    new SpeechEngineError('ENGINE_UNAVAILABLE', 'The server stopped during the transcription');
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      stream.abort();
      reject(stopped());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    for (
      let offset = 0;
      offset < pcm.byteLength && failed === null && !signal?.aborted;
      offset += FRAME_BYTES
    )
      stream.write(pcm.subarray(offset, Math.min(pcm.byteLength, offset + FRAME_BYTES)));
    if (failed === null && !signal?.aborted) await Promise.race([stream.end(), aborted]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) {
    stream.abort();
    throw stopped();
  }
  if (failed !== null) {
    stream.abort();
    throw failed;
  }
  return segments;
}

/** What the user is told when the job gave up. */
function failureText(error: unknown): string {
  if (error instanceof SpeechEngineError || error instanceof PermanentJobError) return error.message;
  return 'The recording could not be transcribed; try again or dictate it.';
}

async function announce(db: TDb, events: DomainEvents, reportId: string): Promise<void> {
  const [report] = await db
    .select({ studyId: reports.studyId, organisationId: reports.organisationId })
    .from(reports)
    .where(eq(reports.id, reportId));
  if (report) events.emit('dictation.recordings.changed', { ...report, reportId });
}

export function transcribeHandler(deps: TTranscribeDeps): TJobHandler {
  const { db, events } = deps;
  return {
    async run({ job, signal }) {
      const id = typeof job.payload.recording_id === 'string' ? job.payload.recording_id : '';
      try {
        return await transcribe(deps, id, signal);
      } catch (error) {
        // Given up (a permanent failure, or the last attempt): the recording says why, at once.
        if (error instanceof PermanentJobError || job.attempt >= job.maxAttempts) {
          const [row] = await db
            .update(dictationRecordings)
            .set({ status: 'FAILED', error: failureText(error) })
            .where(and(eq(dictationRecordings.id, id), eq(dictationRecordings.status, 'PENDING')))
            .returning({ reportId: dictationRecordings.reportId });
          if (row) await announce(db, events, row.reportId);
        }
        throw error;
      }
    },
  };
}

async function transcribe(
  deps: TTranscribeDeps,
  id: string,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { db, blobs, events } = deps;
  const [row] = await db
    .select({ recording: dictationRecordings, storageKey: storedFiles.storageKey })
    .from(dictationRecordings)
    .innerJoin(storedFiles, eq(storedFiles.id, dictationRecordings.fileId))
    .where(eq(dictationRecordings.id, id));
  if (!row || row.recording.status !== 'PENDING') return { skipped: true };
  const { recording } = row;
  const services = deps.services();
  const engine = await services.engines.engineFor(db, recording.organisationId);
  if (!engine.provider)
    throw new PermanentJobError('Dictation is turned off for this organisation, so nothing was transcribed.');
  let pcm: Buffer;
  try {
    pcm = await decodeRecording(await blobs.read(row.storageKey), audioKindOf(recording.contentType));
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unknown format';
    throw new PermanentJobError(`The recording could not be read (${reason}).`, { cause: error });
  }
  let segments: TDictationSegment[];
  try {
    segments = await transcribePcm(
      engine.provider,
      pcm,
      {
        organisationId: recording.organisationId,
        userId: recording.byUserId,
      },
      signal,
    );
  } catch (error) {
    if (error instanceof SpeechEngineError && error.code === 'ENGINE_REFUSED_CREDENTIALS')
      throw new PermanentJobError(error.message, { cause: error });
    throw error;
  }
  const transcript = transcriptOf(segments);
  const [report] = await db
    .select({ studyId: reports.studyId })
    .from(reports)
    .where(eq(reports.id, recording.reportId));
  const inserted =
    transcript !== '' && report
      ? await services.insertIntoOpenReport({
          reportId: recording.reportId,
          studyId: report.studyId,
          html: transcriptHtml(transcript),
        })
      : false;
  await db
    .update(dictationRecordings)
    .set({ status: 'TRANSCRIBED', transcript, error: null, inserted })
    .where(and(eq(dictationRecordings.id, id), eq(dictationRecordings.status, 'PENDING')));
  await announce(db, events, recording.reportId);
  return { words: transcript === '' ? 0 : transcript.split(/\s+/).length, inserted };
}
