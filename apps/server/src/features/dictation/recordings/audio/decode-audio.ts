// Decoding a recording happens in a worker thread (a 20-minute 48 kHz stereo file is seconds of CPU):
// one short-lived thread per recording; the job runner bounds how many run at once.
import { Worker } from 'node:worker_threads';

const fromSource = import.meta.url.endsWith('.ts');
const SOURCE_CONDITION = '--conditions=ris-source';

/** 16 kHz s16le mono PCM of a stored recording (WAV, or Opus in WebM/Ogg); rejects with the decoder's reason. */
export function decodeRecording(data: Buffer, kind: 'wav' | 'webm' | 'ogg'): Promise<Buffer> {
  const file = new URL(fromSource ? './decode-worker.ts' : './decode-worker.js', import.meta.url);
  const execArgv = [...process.execArgv];
  if (fromSource && !execArgv.includes(SOURCE_CONDITION)) execArgv.push(SOURCE_CONDITION);
  const worker = new Worker(file, { execArgv, workerData: { data: new Uint8Array(data), kind } });
  return new Promise<Buffer>((resolve, reject) => {
    worker.once('message', (message: unknown) => {
      if (
        typeof message === 'object' &&
        message !== null &&
        'pcm' in message &&
        message.pcm instanceof Uint8Array
      )
        resolve(Buffer.from(message.pcm.buffer, message.pcm.byteOffset, message.pcm.byteLength));
      else
        reject(
          new Error(
            typeof message === 'object' && message !== null && 'message' in message
              ? String(message.message)
              : 'the recording could not be decoded',
          ),
        );
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the decoder stopped (exit ${code})`));
    });
  });
}
