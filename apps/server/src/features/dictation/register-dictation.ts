// Dictation's part of the app (issue 17), wired by app.ts: the engines (PocketSphinx created once and
// closed with the app; Augnito made per dictation from the organisation's account), the speech
// socket, and the jobs of recorded dictations.
import type { FastifyInstance } from 'fastify';
import type { TJobHandlers } from '../../jobs/jobs.ts';
import { createAugnitoProvider } from '../../integrations/speech/augnito/augnito-provider.ts';
import {
  createPocketsphinxProvider,
  pocketsphinxAvailable,
} from '../../integrations/speech/pocketsphinx/pocketsphinx-provider.ts';
import type { TDictationServices } from './dictation-services.ts';
import { languageModelDir, languageModelFor, languageModelInfo } from './language-model/language-model.ts';
import { recordingRetentionHandler, RECORDING_RETENTION_QUEUE } from './recordings/retention-job.ts';
import { TRANSCRIBE_QUEUE, transcribeHandler } from './recordings/transcribe-job.ts';
import { SpeechEngines } from './speech-engines.ts';
import { registerSpeechSocket } from './speech-socket/speech-socket.ts';

export type TDictationWiring = {
  /** Puts HTML at the caret of the report's open editors; false when none has it open (app.ts). */
  insertIntoOpenReport: TDictationServices['insertIntoOpenReport'];
};

/** Decorates app.dictation and attaches the speech socket; call after the collaboration server. */
export function registerDictation(app: FastifyInstance, wiring: TDictationWiring): void {
  const { db } = app.deps.database;
  const { config } = app.deps;
  const modelDir = languageModelDir(config.dataDir);
  const pocketsphinx = pocketsphinxAvailable()
    ? createPocketsphinxProvider({
        languageModelFor: (organisationId) => languageModelFor(db, organisationId, modelDir),
        timeoutMs: config.speech.engineTimeoutMs,
      })
    : null;
  const engines = new SpeechEngines({
    pocketsphinx,
    augnito: createAugnitoProvider,
    box: app.secretBox,
    timeoutMs: config.speech.engineTimeoutMs,
  });
  // The socket reads app.dictation only once a connection comes, after this function has returned.
  const socket = registerSpeechSocket(app);
  app.decorate('dictation', {
    engines,
    languageModelInfo,
    insertIntoOpenReport: wiring.insertIntoOpenReport,
    openStreams: socket.openStreams,
  } satisfies TDictationServices);
  app.addHook('onClose', async () => engines.close());
}

/** The queues of recorded dictations: transcription and the retention chain. */
export function dictationJobHandlers(app: FastifyInstance): TJobHandlers {
  const deps = { db: app.deps.database.db, blobs: app.deps.blobs, events: app.events };
  return {
    [TRANSCRIBE_QUEUE]: transcribeHandler({ ...deps, services: () => app.dictation }),
    [RECORDING_RETENTION_QUEUE]: recordingRetentionHandler(deps),
  };
}
