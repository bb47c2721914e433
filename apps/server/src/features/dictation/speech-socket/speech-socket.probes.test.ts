// The speech socket probed as an attacker and a careless client would: an oversized or non-JSON
// first message, audio before start, two starts, a report of a facility the user is not assigned
// to, a disabled user's token, empty frames; the server keeps answering and frees the user's slot.
import type { TSpeechServerMessage } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAugnito, type TFakeAugnito } from '../../../test/fake-augnito-server.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../../test/report-test-world.ts';
import { openSpeechSocket, type TSpeechClient } from '../../../test/speech-client.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { postUserForm } from '../../../test/user-admin-world.ts';

const KEY = 'augnito-socket-probe-key';
let server: TTestServer;
let fake: TFakeAugnito;
let world: TWorld;
let reportId: string;

beforeAll(async () => {
  // A started dictation without audio for 1 s is stopped (the others stop long before that).
  server = await startTestServer({ env: { SPEECH_ALLOWED_HOSTS: '127.0.0.1', SPEECH_IDLE_SECONDS: '1' } });
  fake = await startFakeAugnito({ accessKey: KEY });
  world = await buildReportWorld(server);
  reportId = (await world.studyWithReport()).report.id;
  const response = await world.call('admin', 'PUT', '/organisation/speech-settings', {
    provider: 'augnito',
    augnito: { server_url: fake.url, account_code: fake.accountCode, lm_id: fake.lmId, access_key: KEY },
  });
  expect(response.status).toBe(200);
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

async function refusal(client: TSpeechClient): Promise<TSpeechServerMessage | undefined> {
  const messages = await client.until('error');
  await client.closed;
  return messages.at(-1);
}

/** A dictation that starts, is ready and stops cleanly (the user's slot is free). */
async function dictatesCleanly(user: TWorldUser = 'radiologist') {
  fake.nextTranscripts([]);
  const client = await openSpeechSocket(server.url);
  client.start(world.token(user), reportId);
  expect(await client.next()).toEqual({ type: 'ready', provider: 'augnito' });
  client.stop();
  expect(await client.until('ended')).toContainEqual({ type: 'ended' });
  await client.closed;
}

describe('speech socket, probed', () => {
  it('closes on a 10 MB first message without reading it, and keeps serving', async () => {
    const client = await openSpeechSocket(server.url);
    client.sendText(JSON.stringify({ type: 'start', token: 'x'.repeat(10_000_000), report_id: reportId }));
    expect(await client.closed).toBe(1009);
    await dictatesCleanly();
  });

  it('answers BAD_MESSAGE to non-JSON text and to audio before start', async () => {
    const text = await openSpeechSocket(server.url);
    text.sendText('<html>not json');
    expect(await refusal(text)).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
    const audio = await openSpeechSocket(server.url);
    audio.audio(Buffer.alloc(3_200));
    expect(await refusal(audio)).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
  });

  it('refuses a second start and frees the slot the first one took', async () => {
    for (let round = 0; round < 3; round++) {
      const client = await openSpeechSocket(server.url);
      client.start(world.token('radiologist'), reportId);
      client.start(world.token('radiologist'), reportId);
      expect(await refusal(client)).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
    }
    const ready = await openSpeechSocket(server.url);
    ready.start(world.token('radiologist'), reportId);
    expect(await ready.next()).toMatchObject({ type: 'ready' });
    ready.start(world.token('radiologist'), reportId);
    expect(await refusal(ready)).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
    await dictatesCleanly();
  });

  it('answers NOT_FOUND for a report of a facility the user is not assigned to', async () => {
    const client = await openSpeechSocket(server.url);
    client.start(world.token('otherFacilityTranscriptionist'), reportId);
    expect(await refusal(client)).toMatchObject({ type: 'error', code: 'NOT_FOUND' });
  });

  it("refuses a disabled user's token", async () => {
    const disabled = await postUserForm(server, world.token('admin'), {
      id: world.users.reporter.id,
      status: 'INACTIVE',
      by_user_id: world.users.admin.id,
    });
    expect(disabled.status, disabled.text).toBe(200);
    const client = await openSpeechSocket(server.url);
    client.start(world.token('reporter'), reportId);
    expect(await refusal(client)).toMatchObject({ type: 'error', code: 'UNAUTHENTICATED' });
  });

  it('takes a flood of tiny and empty frames without passing empty ones on, within the length limit', async () => {
    fake.nextTranscripts([]);
    const client = await openSpeechSocket(server.url);
    client.start(world.token('radiologist'), reportId);
    expect(await client.next()).toMatchObject({ type: 'ready' });
    for (let i = 0; i < 2_000; i++) client.audio(i % 2 === 0 ? Buffer.alloc(0) : Buffer.alloc(2));
    client.stop();
    const messages = await client.until('ended');
    expect(messages.filter((message) => message.type === 'error')).toEqual([]);
    expect(fake.streams.at(-1)?.pcmBytes).toBe(2_000);
    expect(fake.streams.at(-1)?.frames).toBe(1_000);
    await client.closed;
  });

  it('stops a dictation whose client stopped sending audio (idle), flushing the engine, and frees the slot', async () => {
    fake.nextTranscripts(['left open']);
    const client = await openSpeechSocket(server.url);
    client.start(world.token('radiologist'), reportId);
    expect(await client.next()).toMatchObject({ type: 'ready' });
    client.audio(Buffer.alloc(3_200));
    // No stop from the client: the server ends it as if it had said stop.
    const messages = await client.until('ended');
    expect(messages.filter((message) => message.type === 'error')).toEqual([]);
    expect(fake.streams.at(-1)?.eos).toBe(true);
    await client.closed;
    await dictatesCleanly();
  });
});
