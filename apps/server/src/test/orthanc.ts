// One real Orthanc per test file (a fresh archive in a temporary folder), stopped after the file.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startLocalOrthanc, type TLocalOrthanc } from '../integrations/pacs/local-orthanc.ts';

export type TTestOrthanc = TLocalOrthanc & { close(): Promise<void> };

export async function startTestOrthanc(options: { stableAgeSeconds?: number } = {}): Promise<TTestOrthanc> {
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'ris-orthanc-'));
  const orthanc = await startLocalOrthanc({ storageDir, stableAgeSeconds: options.stableAgeSeconds ?? 1 });
  return {
    ...orthanc,
    async close() {
      await orthanc.stop();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}
