// A worker thread that builds one language model (counting n-grams of thousands of reports is CPU
// work the main thread must not do). Started by build-in-worker.ts with the sources as workerData;
// posts the built model back and exits.
import { parentPort, workerData } from 'node:worker_threads';
import { buildLanguageModel, type TLanguageModelSources } from './build-language-model.ts';

const sources = workerData as TLanguageModelSources;
parentPort?.postMessage(await buildLanguageModel(sources));
