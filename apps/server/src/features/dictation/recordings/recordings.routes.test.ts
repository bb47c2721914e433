// Recorded dictations over HTTP (real multipart, real database, real job runner) with the local
// Augnito engine transcribing them.
import { RECORDING_MAX_BYTES, worklistItemTopic, type TRecording } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { FAST_JOBS_ENV } from '../../../test/comm-test-helpers.ts';
import { startFakeAugnito, type TFakeAugnito } from '../../../test/fake-augnito-server.ts';
import { connectSocket, listenTopic, MessageLog, type TTestSocket } from '../../../test/realtime-client.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import { oggOpus, WEBM_TONE } from '../../../test/opus-fixtures.ts';
import { opusDurationSeconds, opusPacketSamples, readWebmOpus } from './audio/opus.ts';
import { encodeWav } from './audio/wav.ts';
import { RECORDING_RETENTION_QUEUE, removeExpiredRecordings } from './retention-job.ts';

const KEY = 'augnito-recording-key';
const PATH = '/api/v1/worklist/augnito/voice-data';
let server: TTestServer;
let fake: TFakeAugnito;
let world: TWorld;
const sockets: TTestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { ...FAST_JOBS_ENV, SPEECH_ALLOWED_HOSTS: '127.0.0.1' } });
  fake = await startFakeAugnito({ accessKey: KEY });
  world = await buildReportWorld(server);
  await useAugnito(KEY);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
  await fake.close();
});

async function useAugnito(accessKey: string) {
  const response = await world.call('admin', 'PUT', '/organisation/speech-settings', {
    provider: 'augnito',
    augnito: {
      server_url: fake.url,
      account_code: fake.accountCode,
      lm_id: fake.lmId,
      access_key: accessKey,
    },
  });
  expect(response.status).toBe(200);
}

/** One second of a 440 Hz tone as a 44.1 kHz stereo WAV (decoded, downmixed and resampled). */
function toneWav(seconds = 1, rate = 44_100): Buffer {
  const frames = Math.round(seconds * rate);
  const pcm = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    const value = Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8_000);
    pcm.writeInt16LE(value, i * 4);
    pcm.writeInt16LE(value, i * 4 + 2);
  }
  return encodeWav(pcm, rate, 2);
}

async function upload(
  user: TWorldUser | null,
  fields: Record<string, string>,
  file: { data: Buffer; name: string; type?: string } | null = { data: toneWav(), name: 'dictation.wav' },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file)
    form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'audio/wav' }), file.name);
  const response = await fetch(`${server.url}${PATH}`, {
    method: 'POST',
    headers: user ? { authorization: `Bearer ${world.token(user)}` } : {},
    body: form,
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const listOf = async (user: TWorldUser, reportId: string) =>
  world.call(user, 'GET', `/worklist/augnito/voice-data?report_id=${reportId}`);

async function settled(reportId: string, id: string): Promise<TRecording> {
  let found: TRecording | undefined;
  await expect
    .poll(
      async () => {
        found = ((await listOf('admin', reportId)).json as TRecording[]).find((row) => row.id === id);
        return found?.status;
      },
      { timeout: 20_000, interval: 25 },
    )
    .not.toBe('PENDING');
  if (!found) throw new Error('recording gone');
  return found;
}

const rowOf = async (id: string) => {
  const [row] = await server.db.select().from(t.dictationRecordings).where(eq(t.dictationRecordings.id, id));
  return row;
};

async function editorLog(user: TWorldUser, studyId: string): Promise<MessageLog> {
  const socket = await connectSocket(server.url, { auth: { token: world.token(user) } });
  sockets.push(socket);
  const log = new MessageLog(socket);
  expect(await listenTopic(socket, worklistItemTopic(studyId))).toMatchObject({ ok: true });
  return log;
}

describe('recorded dictations', () => {
  it('takes a WAV from an editor, transcribes it and inserts it into the open report', async () => {
    const { studyId, report } = await world.studyWithReport();
    const editor = await editorLog('radiologist', studyId);
    fake.nextTranscripts(['three point two centimetres nodule full stop']);
    const response = await upload('radiologist', {
      report_id: report.id,
      by_user_id: world.users.radiologist.id,
    });
    expect(response.status).toBe(202);
    const created = response.json as TRecording;
    expect(created).toMatchObject({
      report_id: report.id,
      by_user_id: world.users.radiologist.id,
      by_user_name: 'Dr Rao',
      status: 'PENDING',
      duration_seconds: 1,
      content_type: 'audio/wav',
      transcript: null,
      inserted: false,
    });
    const done = await settled(report.id, created.id);
    expect(done).toMatchObject({ status: 'TRANSCRIBED', transcript: '3.2 cm nodule.', inserted: true });
    expect(await editor.next((message) => message.type === 'insert-report-content')).toEqual({
      type: 'insert-report-content',
      data: { report_id: report.id, content: '<p>3.2 cm nodule.</p>' },
    });
    await editor.next((message) => message.type === 'dictation-recordings-changed');
    // The engine heard the recording downmixed and resampled: 1 s of 16 kHz s16le.
    expect(fake.streams.at(-1)?.pcmBytes).toBe(32_000);
  });

  it("transcribes a browser's WebM (Opus) and an Ogg (Opus) recording", async () => {
    const { report } = await world.studyWithReport();
    const webm = readWebmOpus(WEBM_TONE);
    const files = [
      { data: WEBM_TONE, name: 'dictation.webm', type: 'audio/webm', content: 'audio/webm' },
      {
        data: oggOpus(webm.packets, webm.channels, opusPacketSamples),
        name: 'dictation.ogg',
        type: 'audio/ogg',
        content: 'audio/ogg',
      },
    ];
    for (const file of files) {
      fake.nextTranscripts(['no acute findings']);
      const response = await upload('radiologist', { report_id: report.id }, file);
      expect(response.status, file.name).toBe(202);
      const created = response.json as TRecording;
      expect(created.content_type).toBe(file.content);
      expect(created.duration_seconds).toBeCloseTo(opusDurationSeconds(webm), 1);
      const done = await settled(report.id, created.id);
      expect(done).toMatchObject({ status: 'TRANSCRIBED', transcript: 'No acute findings' });
      // Decoded to 16 kHz s16le mono for the engine: two bytes a sample.
      expect(fake.streams.at(-1)?.pcmBytes).toBeCloseTo(opusDurationSeconds(webm) * 32_000, -3);
    }
  });

  it('offers the transcript when nobody has the report open; an editor marks it inserted', async () => {
    const { studyId, report } = await world.studyWithReport({ collaborationEnabled: true });
    fake.nextTranscripts(['no acute findings']);
    const response = await upload('transcriptionist', { worklist_id: studyId });
    expect(response.status).toBe(202);
    const done = await settled(report.id, (response.json as TRecording).id);
    expect(done).toMatchObject({ status: 'TRANSCRIBED', transcript: 'No acute findings', inserted: false });
    expect(
      (await world.call('otherRadiologist', 'PUT', `/worklist/augnito/voice-data/${done.id}/inserted`))
        .status,
    ).toBe(403);
    const marked = await world.call(
      'transcriptionist',
      'PUT',
      `/worklist/augnito/voice-data/${done.id}/inserted`,
    );
    expect(marked.status).toBe(200);
    expect(marked.json).toMatchObject({ id: done.id, inserted: true });
  });

  it('keeps a failure the user can read when the engine refuses the key', async () => {
    const { report } = await world.studyWithReport();
    await useAugnito('wrong-key');
    try {
      const response = await upload('radiologist', { report_id: report.id });
      expect(response.status).toBe(202);
      const done = await settled(report.id, (response.json as TRecording).id);
      expect(done.status).toBe('FAILED');
      expect(done.error).toMatch(/key|credential/i);
      expect(done.error).not.toContain('wrong-key');
    } finally {
      await useAugnito(KEY);
    }
  });

  it('lets readers list and play recordings, and nobody outside the report see them', async () => {
    const { report } = await world.studyWithReport();
    const wav = toneWav(0.5, 8_000);
    fake.nextTranscripts([]);
    const response = await upload('radiologist', { report_id: report.id }, { data: wav, name: 'short.wav' });
    expect(response.status).toBe(202);
    const id = (response.json as TRecording).id;
    for (const reader of ['otherRadiologist', 'facilityAdmin', 'admin'] as const) {
      const list = await listOf(reader, report.id);
      expect(list.status, reader).toBe(200);
      expect((list.json as TRecording[]).map((row) => row.id)).toContain(id);
    }
    const audio = await fetch(`${server.url}${PATH}/${id}/audio`, {
      headers: { authorization: `Bearer ${world.token('otherRadiologist')}` },
    });
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await audio.arrayBuffer()).equals(wav)).toBe(true);
    // A referrer reads only FINAL reports; another organisation nothing.
    for (const outsider of ['referrer', 'outsider'] as const) {
      expect((await listOf(outsider, report.id)).status, outsider).toBe(404);
      expect((await world.call(outsider, 'GET', `/worklist/augnito/voice-data/${id}/audio`)).status).toBe(
        404,
      );
    }
  });

  it('answers 404 to another organisation for every route and changes nothing', async () => {
    const { report } = await world.studyWithReport();
    fake.nextTranscripts([]);
    const id = ((await upload('radiologist', { report_id: report.id })).json as TRecording).id;
    await settled(report.id, id);
    const before = await rowOf(id);
    expect((await upload('outsider', { report_id: report.id })).status).toBe(404);
    expect((await world.call('outsider', 'PUT', `/worklist/augnito/voice-data/${id}/inserted`)).status).toBe(
      404,
    );
    expect((await world.call('outsider', 'DELETE', `/worklist/augnito/voice-data/${id}`)).status).toBe(404);
    expect(await rowOf(id)).toEqual(before);
    expect(((await listOf('admin', report.id)).json as TRecording[]).length).toBe(1);
  });

  it('takes recordings only from editors of the report, as themselves', async () => {
    const { report } = await world.studyWithReport();
    expect((await upload('otherRadiologist', { report_id: report.id })).status).toBe(403);
    expect((await upload('referrer', { report_id: report.id })).status).toBe(404);
    const final = (await world.studyWithReport({ status: 'FINAL' })).report;
    expect((await upload('radiologist', { report_id: final.id })).status).toBe(403);
    const someoneElse = await upload('radiologist', {
      report_id: report.id,
      by_user_id: world.users.admin.id,
    });
    expect(someoneElse.status).toBe(403);
    expect(someoneElse.text).toContain('by_user_id');
    expect((await upload(null, { report_id: report.id })).status).toBe(401);
    expect(((await listOf('admin', report.id)).json as TRecording[]).length).toBe(0);
  });

  it('refuses bad input naming the field', async () => {
    const { report } = await world.studyWithReport();
    const noFile = await upload('radiologist', { report_id: report.id }, null);
    expect(noFile.status).toBe(400);
    expect(noFile.text).toContain('file');
    const noId = await upload('radiologist', {});
    expect(noId.status).toBe(400);
    expect(noId.text).toContain('report_id');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const image = await upload('radiologist', { report_id: report.id }, { data: png, name: 'fake.wav' });
    expect(image.status).toBe(415);
    const opusHead = Buffer.concat([
      Buffer.from('OggS\0\x02', 'binary'),
      Buffer.alloc(22),
      Buffer.from('OpusHead', 'ascii'),
      Buffer.alloc(64),
    ]);
    const ogg = await upload('radiologist', { report_id: report.id }, { data: opusHead, name: 'a.ogg' });
    expect(ogg.status).toBe(415);
    expect(ogg.text).toContain('file');
    const long = await upload(
      'radiologist',
      { report_id: report.id },
      { data: encodeWav(Buffer.alloc(4_000 * 2 * (20 * 60 + 1)), 4_000), name: 'long.wav' },
    );
    expect(long.status).toBe(413);
    expect(long.text).toContain('20 minutes');
    const big = await upload(
      'radiologist',
      { report_id: report.id },
      { data: encodeWav(Buffer.alloc(RECORDING_MAX_BYTES), 16_000), name: 'big.wav' },
    );
    expect(big.status).toBe(413);
    expect(((await listOf('admin', report.id)).json as TRecording[]).length).toBe(0);
  });

  it('deletes a recording and its audio for its author or an admin only', async () => {
    const { report } = await world.studyWithReport();
    fake.nextTranscripts([]);
    const id = ((await upload('radiologist', { report_id: report.id })).json as TRecording).id;
    await settled(report.id, id);
    const fileId = (await rowOf(id))?.fileId ?? '';
    expect(
      (await world.call('otherRadiologist', 'DELETE', `/worklist/augnito/voice-data/${id}`)).status,
    ).toBe(403);
    const deleted = await world.call('radiologist', 'DELETE', `/worklist/augnito/voice-data/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ id, deleted: true });
    expect(await rowOf(id)).toBeUndefined();
    expect(await server.db.select().from(t.storedFiles).where(eq(t.storedFiles.id, fileId))).toEqual([]);
    fake.nextTranscripts([]);
    const other = ((await upload('radiologist', { report_id: report.id })).json as TRecording).id;
    expect((await world.call('admin', 'DELETE', `/worklist/augnito/voice-data/${other}`)).status).toBe(200);
  });

  it('removes recordings past their retention with their files', async () => {
    const { report } = await world.studyWithReport();
    fake.nextTranscripts([]);
    const id = ((await upload('radiologist', { report_id: report.id })).json as TRecording).id;
    const kept = ((await upload('radiologist', { report_id: report.id })).json as TRecording).id;
    await settled(report.id, id);
    await settled(report.id, kept);
    const row = await rowOf(id);
    const [file] = await server.db
      .select()
      .from(t.storedFiles)
      .where(eq(t.storedFiles.id, row?.fileId ?? ''));
    await server.db
      .update(t.dictationRecordings)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(t.dictationRecordings.id, id));
    // The first upload started the hourly passes: one waits.
    const passes = await server.db
      .select()
      .from(t.jobs)
      .where(and(eq(t.jobs.queue, RECORDING_RETENTION_QUEUE), eq(t.jobs.status, 'pending')));
    expect(passes).toHaveLength(1);
    expect(await removeExpiredRecordings(server.db, server.app.deps.blobs, server.app.events)).toBe(1);
    expect(await rowOf(id)).toBeUndefined();
    expect(await server.app.deps.blobs.exists(file?.storageKey ?? '')).toBe(false);
    expect(await rowOf(kept)).toBeDefined();
  });
});
