// The speech socket with the offline engine: espeak-ng speech through PocketSphinx (generic model,
// the organisation has none built yet) to finals on a real WebSocket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesiseSpeech } from '../../../integrations/speech/pocketsphinx/synthesise-speech.ts';
import { buildReportWorld, type TWorld } from '../../../test/report-test-world.ts';
import { openSpeechSocket } from '../../../test/speech-client.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

let server: TTestServer;
let world: TWorld;

beforeAll(async () => {
  // The first stream starts a worker and loads the model: allow it time on a busy machine.
  server = await startTestServer({ env: { SPEECH_ENGINE_TIMEOUT_MS: '30000' } });
  world = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

describe('speech socket with PocketSphinx', () => {
  it('dictates through the offline engine', async () => {
    const chosen = await world.call('admin', 'PUT', '/organisation/speech-settings', {
      provider: 'pocketsphinx',
    });
    expect(chosen.status).toBe(200);
    const { report } = await world.studyWithReport();
    const speech = await synthesiseSpeech('normal study', { voice: 'en-us', wordsPerMinute: 160 });
    const client = await openSpeechSocket(server.url);
    client.start(world.token('radiologist'), report.id);
    expect(await client.next()).toEqual({ type: 'ready', provider: 'pocketsphinx' });
    for (let offset = 0; offset < speech.byteLength; offset += 16_000)
      client.audio(speech.subarray(offset, Math.min(speech.byteLength, offset + 16_000)));
    client.audio(Buffer.alloc(9_600));
    client.stop();
    const messages = await client.until('ended');
    const text = messages.map((message) => (message.type === 'final' ? message.text : '')).join(' ');
    expect(text).toMatch(/\w/);
    expect(await client.closed).toBe(1000);
  });
});
