// The speech socket over a real WebSocket against the app on 127.0.0.1, with the local Augnito
// engine (test/fake-augnito-server.ts) behind it.
import type { TSpeechServerMessage } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { startFakeAugnito, type TFakeAugnito } from '../../../test/fake-augnito-server.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../../test/report-test-world.ts';
import { openSpeechSocket, type TSpeechClient } from '../../../test/speech-client.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

const KEY = 'augnito-live-key-7c1e';
/** Half a second of 16 kHz s16le audio: the fake engine settles one utterance per this much. */
const HALF_SECOND = Buffer.alloc(16_000);
let server: TTestServer;
let fake: TFakeAugnito;
let world: TWorld;
let reportId: string;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      SPEECH_ENGINE_TIMEOUT_MS: '1500',
      SPEECH_MAX_STREAM_SECONDS: '2',
      SPEECH_ALLOWED_HOSTS: '127.0.0.1',
    },
  });
  fake = await startFakeAugnito({ accessKey: KEY });
  world = await buildReportWorld(server);
  reportId = (await world.studyWithReport()).report.id;
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

async function useAugnito(overrides: Record<string, string> = {}) {
  const response = await world.call('admin', 'PUT', '/organisation/speech-settings', {
    provider: 'augnito',
    augnito: {
      server_url: fake.url,
      account_code: fake.accountCode,
      lm_id: fake.lmId,
      access_key: KEY,
      ...overrides,
    },
  });
  expect(response.status).toBe(200);
}

beforeEach(async () => {
  await useAugnito();
});

async function started(user: TWorldUser = 'radiologist', report = reportId): Promise<TSpeechClient> {
  const client = await openSpeechSocket(server.url);
  client.start(world.token(user), report);
  return client;
}

async function refusal(client: TSpeechClient): Promise<TSpeechServerMessage> {
  const messages = await client.until('error');
  const last = messages.at(-1);
  if (!last) throw new Error('no message');
  await client.closed;
  return last;
}

describe('speech socket', () => {
  it('streams audio to the engine and answers partials, finals read by the grammar, then ended', async () => {
    fake.nextTranscripts(['three point two centimetres nodule full stop', 'new paragraph']);
    const streams = fake.streams.length;
    const client = await started();
    expect(await client.next()).toEqual({ type: 'ready', provider: 'augnito' });
    client.audio(HALF_SECOND.subarray(0, 8_000));
    expect(await client.next()).toMatchObject({ type: 'partial' });
    client.audio(HALF_SECOND.subarray(0, 8_000));
    const first = await client.until('final');
    expect(first.at(-1)).toEqual({
      type: 'final',
      text: 'three point two centimetres nodule full stop',
      segments: [{ kind: 'text', text: '3.2 cm nodule.' }],
    });
    client.stop();
    const rest = await client.until('ended');
    expect(rest.filter((message) => message.type === 'final')).toEqual([
      { type: 'final', text: 'new paragraph', segments: [{ kind: 'command', command: 'new-paragraph' }] },
    ]);
    expect(await client.closed).toBe(1000);
    const stream = fake.streams[streams];
    expect(stream?.query.usertag).toBe(world.users.radiologist.id);
    expect(stream?.pcmBytes).toBe(16_000);
    expect(stream?.eos).toBe(true);
  });

  it('refuses a start without a valid token, before any audio', async () => {
    const streams = fake.streams.length;
    const client = await openSpeechSocket(server.url);
    client.start('not-a-token', reportId);
    expect(await refusal(client)).toMatchObject({ type: 'error', code: 'UNAUTHENTICATED' });
    const empty = await openSpeechSocket(server.url);
    empty.sendText(JSON.stringify({ type: 'start', token: '', report_id: reportId }));
    expect(await refusal(empty)).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
    expect(fake.streams.length).toBe(streams);
  });

  it("answers NOT_FOUND for another organisation's report and FORBIDDEN for one the user may only read", async () => {
    const streams = fake.streams.length;
    expect(await refusal(await started('outsider'))).toMatchObject({ code: 'NOT_FOUND' });
    const final = (await world.studyWithReport({ status: 'FINAL' })).report.id;
    expect(await refusal(await started('radiologist', final))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(await started('referrer', final))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(await started('otherRadiologist'))).toMatchObject({ code: 'FORBIDDEN' });
    expect(fake.streams.length).toBe(streams);
  });

  it('refuses audio before ready, odd-length frames and a stream longer than the limit', async () => {
    const early = await openSpeechSocket(server.url);
    early.audio(HALF_SECOND);
    expect(await refusal(early)).toMatchObject({ code: 'BAD_MESSAGE' });

    const odd = await started();
    expect(await odd.next()).toMatchObject({ type: 'ready' });
    odd.audio(Buffer.alloc(301));
    expect(await refusal(odd)).toMatchObject({ code: 'BAD_AUDIO' });

    const long = await started();
    expect(await long.next()).toMatchObject({ type: 'ready' });
    // SPEECH_MAX_STREAM_SECONDS is 2 here: the fifth half second is too much.
    for (let i = 0; i < 5; i++) long.audio(HALF_SECOND);
    expect(await refusal(long)).toMatchObject({ code: 'TOO_LONG' });
  });

  it('tells the user when the engine refuses the key, is down, or hangs', async () => {
    await useAugnito({ access_key: 'wrong-key' });
    expect(await refusal(await started())).toMatchObject({ code: 'ENGINE_REFUSED_CREDENTIALS' });

    await useAugnito({ server_url: 'ws://127.0.0.1:1/v2/speechapi' });
    expect(await refusal(await started())).toMatchObject({ code: 'ENGINE_UNAVAILABLE' });

    await useAugnito();
    fake.failNext('hang');
    expect(await refusal(await started())).toMatchObject({ code: 'ENGINE_TIMEOUT' });

    // The next dictation works again.
    const client = await started();
    expect(await client.next()).toMatchObject({ type: 'ready' });
    client.stop();
    await client.until('ended');
  });

  it('answers DICTATION_OFF when the organisation has no server engine', async () => {
    await world.call('admin', 'PUT', '/organisation/speech-settings', { provider: 'off' });
    expect(await refusal(await started())).toMatchObject({ code: 'DICTATION_OFF' });
  });

  it('bounds the streams of one user', async () => {
    const first = await started();
    const second = await started();
    expect(await first.next()).toMatchObject({ type: 'ready' });
    expect(await second.next()).toMatchObject({ type: 'ready' });
    expect(await refusal(await started())).toMatchObject({ code: 'BUSY' });
    first.close();
    second.close();
    await Promise.all([first.closed, second.closed]);
  });

  it('refuses the next final once the user may no longer edit the report', async () => {
    fake.nextTranscripts(['no acute findings']);
    const client = await started(
      'transcriptionist',
      (await world.studyWithReport({ collaborationEnabled: true })).report.id,
    );
    expect(await client.next()).toMatchObject({ type: 'ready' });
    await server.db
      .update(t.users)
      .set({ status: 'INACTIVE' })
      .where(eq(t.users.id, world.users.transcriptionist.id));
    client.audio(HALF_SECOND);
    const messages = await client.until('error');
    expect(messages.filter((message) => message.type === 'final')).toEqual([]);
    expect(messages.at(-1)).toMatchObject({ code: 'FORBIDDEN' });
    await client.closed;
  });
});
