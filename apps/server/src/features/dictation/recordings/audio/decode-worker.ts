// Worker thread entry: decodes one recording to 16 kHz s16le mono (wav.ts), off the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { decodeWavToPcm16k } from './wav.ts';

const input: unknown = workerData;
if (parentPort && input instanceof Uint8Array) {
  try {
    const decoded = decodeWavToPcm16k(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
    const pcm = new Uint8Array(decoded.byteLength);
    pcm.set(decoded);
    parentPort.postMessage({ ok: true, pcm }, [pcm.buffer]);
  } catch (error) {
    parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
}
