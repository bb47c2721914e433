// What the dictation feature is handed by app.ts (it never imports the doors above it nor the
// engines' modules): the engine registry, the language model's status, and a way to put a
// transcript into a report that is open in an editor.
import 'fastify';
import type { TSpeechSettings } from '@ris/domain';
import type { TDbOrTx } from '../../db/client.ts';
import type { SpeechEngines } from './speech-engines.ts';

export type TDictationServices = {
  engines: SpeechEngines;
  /** The organisation's offline language model (built_at, words, sentences), null when none. */
  languageModelInfo(db: TDbOrTx, organisationId: string): Promise<TSpeechSettings['language_model']>;
  /**
   * Sends HTML to the report's open editors, inserted at their caret (insert-report-content).
   * Resolves false when nobody has the report open to edit, so the text stays offered.
   */
  insertIntoOpenReport(input: { reportId: string; studyId: string; html: string }): Promise<boolean>;
  /** Dictations streaming through this server's speech socket now (metrics). */
  openStreams(): number;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Dictation's engines and ports (features/dictation/dictation-services.ts). */
    dictation: TDictationServices;
  }
}
