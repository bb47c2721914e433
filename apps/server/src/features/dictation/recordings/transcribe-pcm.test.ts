// transcribePcm, the recorded-dictation job's stream through an engine, against the local engine
// that speaks Augnito's protocol: the transcript in order, and a shutdown that does not wait for a
// hung engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAugnitoProvider } from '../../../integrations/speech/augnito/augnito-provider.ts';
import { startFakeAugnito, type TFakeAugnito } from '../../../test/fake-augnito-server.ts';
import { transcribePcm } from './transcribe-job.ts';

const ACCESS_KEY = 'transcribe-test-key';
const WHO = {
  organisationId: '0b4e3c6a-1f2d-4e5f-8a9b-0c1d2e3f4a5b',
  userId: '7d1f6a0e-5b0b-4c8e-9a43-2f1a4c1d9b10',
};

let fake: TFakeAugnito;
beforeAll(async () => {
  fake = await startFakeAugnito({ accessKey: ACCESS_KEY });
});
afterAll(async () => {
  await fake.close();
});

/** An engine whose silence would only end after a minute: the abort must not wait for it. */
const provider = () =>
  createAugnitoProvider({
    serverUrl: fake.url,
    accountCode: fake.accountCode,
    accessKey: ACCESS_KEY,
    lmId: fake.lmId,
    sourceApp: 'ris-test',
    timeoutMs: 60_000,
  });

describe('transcribePcm', () => {
  it("answers the engine's finals read by the grammar, in order", async () => {
    fake.nextTranscripts(['no acute abnormality full stop']);
    const segments = await transcribePcm(provider(), Buffer.alloc(32_000 * 2), WHO);
    expect(segments).toEqual([{ kind: 'text', text: 'No acute abnormality.' }]);
  });

  it('drops the stream and rejects at once when the job is aborted (server shutting down)', async () => {
    fake.failNext('hang');
    const controller = new AbortController();
    const before = fake.streams.length;
    const running = transcribePcm(provider(), Buffer.alloc(32_000), WHO, controller.signal);
    // The engine has all the audio and answers nothing: only the abort can end this.
    await expect.poll(() => fake.streams[before]?.pcmBytes ?? 0).toBe(32_000);
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
  });

  it('does not start streaming when the job is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      transcribePcm(provider(), Buffer.alloc(32_000), WHO, controller.signal),
    ).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
  });
});
