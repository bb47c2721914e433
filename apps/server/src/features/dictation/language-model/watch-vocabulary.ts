// Rebuilds an organisation's language model when its templates or macros change: each
// 'vocabulary.changed' event enqueues the debounced job (one per organisation and window).
import type { FastifyInstance } from 'fastify';
import { pocketsphinxAvailable } from '../../../integrations/speech/pocketsphinx/pocketsphinx-library.ts';
import { enqueueLanguageModelBuild } from './language-model.ts';

export function watchVocabulary(app: FastifyInstance): void {
  if (!pocketsphinxAvailable()) return;
  const { db } = app.deps.database;
  const off = app.events.on('vocabulary.changed', ({ organisationId }) => {
    enqueueLanguageModelBuild(db, organisationId).catch((error: unknown) =>
      app.log.warn({ err: error }, 'language model rebuild not enqueued'),
    );
  });
  app.addHook('onClose', async () => off());
}
