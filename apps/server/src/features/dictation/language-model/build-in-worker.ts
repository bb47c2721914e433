// Builds a language model in a worker thread of its own (language-model-worker.ts), from dist/ or,
// in tests and `npm run dev`, from source with --conditions=ris-source (as documents/render-pool).
import { Worker } from 'node:worker_threads';
import type { TBuiltLanguageModel, TLanguageModelSources } from './build-language-model.ts';

const fromSource = import.meta.url.endsWith('.ts');
const SOURCE_CONDITION = '--conditions=ris-source';

export function buildLanguageModelInWorker(sources: TLanguageModelSources): Promise<TBuiltLanguageModel> {
  const file = new URL(
    fromSource ? './language-model-worker.ts' : './language-model-worker.js',
    import.meta.url,
  );
  const execArgv = [...process.execArgv];
  if (fromSource && !execArgv.includes(SOURCE_CONDITION)) execArgv.push(SOURCE_CONDITION);
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { execArgv, workerData: sources });
    let result: TBuiltLanguageModel | null = null;
    worker.once('message', (built: TBuiltLanguageModel) => {
      result = built;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`the language model worker exited with ${code} before answering`));
    });
  });
}
