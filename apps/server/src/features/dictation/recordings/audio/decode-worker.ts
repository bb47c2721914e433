// Worker thread entry: decodes one recording to 16 kHz s16le mono (wav.ts, opus.ts), off the main
// thread.
import { parentPort, workerData } from 'node:worker_threads';
import { decodeOpusToPcm16k } from './opus.ts';
import { decodeWavToPcm16k } from './wav.ts';

const input: unknown = workerData;

async function decode(data: Uint8Array, kind: unknown): Promise<Buffer> {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (kind === 'webm' || kind === 'ogg') return decodeOpusToPcm16k(bytes, kind);
  return decodeWavToPcm16k(bytes);
}

if (
  parentPort &&
  typeof input === 'object' &&
  input !== null &&
  'data' in input &&
  input.data instanceof Uint8Array
) {
  const port = parentPort;
  decode(input.data, 'kind' in input ? input.kind : 'wav').then(
    (decoded) => {
      const pcm = new Uint8Array(decoded.byteLength);
      pcm.set(decoded);
      port.postMessage({ ok: true, pcm }, [pcm.buffer]);
    },
    (error: unknown) =>
      port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
}
