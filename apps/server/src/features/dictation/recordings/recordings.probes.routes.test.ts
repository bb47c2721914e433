// Recorded dictations probed as an attacker and a careless user would: other facilities and
// organisations by worklist_id (404, nothing stored), lying or broken WAV and WebM/Ogg files (4xx or
// a FAILED recording, never a 5xx), hostile file names, and the audio route's headers.
import type { TRecording } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { FAST_JOBS_ENV } from '../../../test/comm-test-helpers.ts';
import { startFakeAugnito, type TFakeAugnito } from '../../../test/fake-augnito-server.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { oggOpus, WEBM_TONE } from '../../../test/opus-fixtures.ts';
import { opusPacketSamples, readWebmOpus } from './audio/opus.ts';
import { encodeWav } from './audio/wav.ts';

const KEY = 'augnito-probe-key';
const PATH = '/api/v1/worklist/augnito/voice-data';
let server: TTestServer;
let fake: TFakeAugnito;
let world: TWorld;

beforeAll(async () => {
  server = await startTestServer({ env: { ...FAST_JOBS_ENV, SPEECH_ALLOWED_HOSTS: '127.0.0.1' } });
  fake = await startFakeAugnito({ accessKey: KEY });
  world = await buildReportWorld(server);
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

async function upload(
  user: TWorldUser,
  fields: Record<string, string>,
  file: { data: Buffer; name: string; type?: string },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'audio/wav' }), file.name);
  const response = await fetch(`${server.url}${PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${world.token(user)}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const tone = (seconds = 0.5, rate = 16_000) => {
  const pcm = Buffer.alloc(Math.round(seconds * rate) * 2);
  for (let i = 0; i < pcm.byteLength / 2; i++)
    pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8_000), i * 2);
  return encodeWav(pcm, rate);
};

/** A WAV whose header says what the test wants (fmt fields and the declared data size). */
function lyingWav(input: {
  channels?: number;
  rate?: number;
  bits?: number;
  declared?: number;
  bytes?: number;
}) {
  const wav = tone();
  const body = wav.subarray(44, 44 + (input.bytes ?? wav.byteLength - 44));
  const header = Buffer.from(wav.subarray(0, 44));
  if (input.channels !== undefined) header.writeUInt16LE(input.channels, 22);
  if (input.rate !== undefined) header.writeUInt32LE(input.rate, 24);
  if (input.bits !== undefined) header.writeUInt16LE(input.bits, 34);
  if (input.declared !== undefined) header.writeUInt32LE(input.declared, 40);
  return Buffer.concat([header, body]);
}

const counts = async () => ({
  recordings: (await server.db.select().from(t.dictationRecordings)).length,
  files: (await server.db.select().from(t.storedFiles)).length,
});

async function settled(reportId: string, id: string): Promise<TRecording> {
  let found: TRecording | undefined;
  await expect
    .poll(
      async () => {
        const list = await world.call('admin', 'GET', `/worklist/augnito/voice-data?report_id=${reportId}`);
        found = (list.json as TRecording[]).find((row) => row.id === id);
        return found?.status;
      },
      { timeout: 20_000, interval: 25 },
    )
    .not.toBe('PENDING');
  if (!found) throw new Error('recording gone');
  return found;
}

function expectError(response: { status: number; json: unknown }, status: number, field: string) {
  expect(response.status).toBe(status);
  expect(response.json).toMatchObject({
    error: { code: expect.any(String), message: expect.stringContaining(field) },
  });
}

describe('recorded dictations, probed', () => {
  it('answers 404 for a worklist item of another facility or organisation and stores nothing', async () => {
    const { studyId } = await world.studyWithReport();
    const before = await counts();
    for (const user of ['otherFacilityTranscriptionist', 'outsider'] as const) {
      const response = await upload(user, { worklist_id: studyId }, { data: tone(), name: 'a.wav' });
      expect(response.status, user).toBe(404);
      expect(response.json).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses WAV headers that lie, naming the file, and stores nothing', async () => {
    const { report } = await world.studyWithReport();
    const before = await counts();
    const cases = {
      noChannels: lyingWav({ channels: 0 }),
      rateZero: lyingWav({ rate: 0 }),
      rateHuge: lyingWav({ rate: 1_000_000_000 }),
      bits24: lyingWav({ bits: 24 }),
      headerOnly: lyingWav({ bytes: 0 }),
      cutHeader: tone().subarray(0, 30),
    };
    for (const [name, data] of Object.entries(cases)) {
      const response = await upload('radiologist', { report_id: report.id }, { data, name: `${name}.wav` });
      expect(response.status, name).toBeGreaterThanOrEqual(400);
      expect(response.status, name).toBeLessThan(500);
      expectError(response, response.status, 'file');
    }
    expect(await counts()).toEqual(before);
  });

  it('reads a WAV declaring more data than it holds by what it holds', async () => {
    const { report } = await world.studyWithReport();
    fake.nextTranscripts([]);
    const response = await upload(
      'radiologist',
      { report_id: report.id },
      { data: lyingWav({ declared: 0xffff_ffff }), name: 'streamed.wav' },
    );
    expect(response.status).toBe(202);
    expect((response.json as TRecording).duration_seconds).toBe(0.5);
    expect((await settled(report.id, (response.json as TRecording).id)).status).toBe('TRANSCRIBED');
  });

  it('refuses a damaged WebM (an empty track number) with 415 naming the file', async () => {
    const { report } = await world.studyWithReport();
    const at = WEBM_TONE.indexOf(Buffer.from([0xd7, 0x81, 0x01]));
    expect(at).toBeGreaterThan(0);
    const damaged = Buffer.concat([
      WEBM_TONE.subarray(0, at),
      Buffer.from([0xd7, 0x80]),
      WEBM_TONE.subarray(at + 3),
    ]);
    const before = await counts();
    const response = await upload(
      'radiologist',
      { report_id: report.id },
      { data: damaged, name: 'damaged.webm', type: 'audio/webm' },
    );
    expectError(response, 415, 'file');
    expect(await counts()).toEqual(before);
  });

  it('keeps Opus packets of garbage as a readable failure or an empty transcript, never a crash', async () => {
    const { report } = await world.studyWithReport();
    const webm = readWebmOpus(WEBM_TONE);
    const garbage = webm.packets.map((packet, n) => {
      const bytes = new Uint8Array(packet.byteLength);
      for (let i = 0; i < bytes.byteLength; i++) bytes[i] = (n * 31 + i * 17 + 7) & 0xff;
      bytes[0] = packet[0] ?? 0;
      return bytes;
    });
    fake.nextTranscripts([]);
    const response = await upload(
      'radiologist',
      { report_id: report.id },
      { data: oggOpus(garbage, webm.channels, opusPacketSamples), name: 'garbage.ogg', type: 'audio/ogg' },
    );
    expect(response.status).toBe(202);
    const done = await settled(report.id, (response.json as TRecording).id);
    expect(['FAILED', 'TRANSCRIBED']).toContain(done.status);
    // The server still answers.
    expect((await world.call('admin', 'GET', '/speech/options')).status).toBe(200);
  });

  it('keeps a hostile file name out of the store and serves the audio inert', async () => {
    const { report } = await world.studyWithReport();
    fake.nextTranscripts([]);
    const response = await upload(
      'radiologist',
      { report_id: report.id },
      { data: tone(), name: '../../../etc/passwd"\r\nx-evil: 1.html' },
    );
    expect(response.status).toBe(202);
    const id = (response.json as TRecording).id;
    const [row] = await server.db
      .select()
      .from(t.dictationRecordings)
      .where(eq(t.dictationRecordings.id, id));
    const [file] = await server.db
      .select()
      .from(t.storedFiles)
      .where(eq(t.storedFiles.id, row?.fileId ?? ''));
    expect(file?.storageKey).not.toContain('..');
    expect(file?.storageKey).not.toContain('passwd');
    const audio = await fetch(`${server.url}${PATH}/${id}/audio`, {
      headers: { authorization: `Bearer ${world.token('radiologist')}` },
    });
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    expect(audio.headers.get('x-content-type-options')).toBe('nosniff');
    expect(audio.headers.get('x-evil')).toBeNull();
    expect(
      Buffer.from(await audio.arrayBuffer())
        .subarray(0, 4)
        .toString('ascii'),
    ).toBe('RIFF');
    expect(audio.headers.get('content-disposition')).toBe(
      `inline; filename="dictation-${id}.wav"; filename*=UTF-8''dictation-${id}.wav`,
    );
    await settled(report.id, id);
  });
});
