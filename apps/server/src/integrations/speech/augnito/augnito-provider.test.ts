import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TDictationSegment } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAugnito, type TFakeAugnito } from '../../../test/fake-augnito-server.ts';
import { SpeechEngineError, type SpeechProvider, type SpeechStream } from '../speech-provider.ts';
import { createAugnitoProvider, type AugnitoConfig } from './augnito-provider.ts';

const ACCESS_KEY = 'ak-5f1c2e+test/key&more';
const USER_ID = '7d1f6a0e-5b0b-4c8e-9a43-2f1a4c1d9b10';
const ORGANISATION_ID = '0b4e3c6a-1f2d-4e5f-8a9b-0c1d2e3f4a5b';

let fake: TFakeAugnito;

beforeAll(async () => {
  fake = await startFakeAugnito({ accessKey: ACCESS_KEY });
});
afterAll(async () => {
  await fake.close();
});

function configFor(overrides: Partial<AugnitoConfig> = {}): AugnitoConfig {
  return {
    serverUrl: fake.url,
    accountCode: fake.accountCode,
    accessKey: ACCESS_KEY,
    lmId: fake.lmId,
    sourceApp: 'ris-test',
    timeoutMs: 5_000,
    ...overrides,
  };
}

/** Opens a stream that records what the engine says; `failed` settles on onError. */
async function record(provider: SpeechProvider) {
  const partials: string[] = [];
  const finals: [string, TDictationSegment[] | null][] = [];
  const errors: SpeechEngineError[] = [];
  let reportError: (error: SpeechEngineError) => void = () => undefined;
  const failed = new Promise<SpeechEngineError>((resolve) => {
    reportError = resolve;
  });
  const stream: SpeechStream = await provider.open({
    organisationId: ORGANISATION_ID,
    userId: USER_ID,
    onPartial: (text) => partials.push(text),
    onFinal: (text, segments) => finals.push([text, segments]),
    onError: (error) => {
      errors.push(error);
      reportError(error);
    },
  });
  return { stream, partials, finals, errors, failed };
}

const audio = (bytes: number) => Buffer.alloc(bytes, 1);

describe('the Augnito provider against a local engine speaking its protocol', () => {
  it('streams PCM, shows partials while audio arrives, then a final per utterance, and ends on the ACK', async () => {
    const streamsBefore = fake.streams.length;
    fake.nextTranscripts(['the liver is normal full stop', 'no focal lesion']);
    const provider = createAugnitoProvider(configFor());
    expect(provider.name).toBe('augnito');
    const { stream, partials, finals, errors } = await record(provider);
    stream.write(audio(8_000));
    stream.write(audio(8_000));
    stream.write(audio(8_000));
    await stream.end();

    expect(finals).toEqual([
      ['the liver is normal full stop', null],
      ['no focal lesion', null],
    ]);
    expect(partials).toEqual(['the liver is', 'no focal']);
    expect(errors).toEqual([]);
    const seen = fake.streams[streamsBefore];
    expect(seen).toMatchObject({ pcmBytes: 24_000, frames: 3, eos: true, refused: false });
    expect(seen?.query).toEqual({
      'content-type':
        'audio/x-raw, layout=(string)interleaved, rate=(int)16000, format=(string)S16LE, channels=(int)1',
      accountcode: fake.accountCode,
      accesskey: ACCESS_KEY,
      lmid: fake.lmId,
      usertag: USER_ID,
      sourceapp: 'ris-test',
      noisect: '1',
    });
  });

  it("maps Augnito's command actions to voice commands and ignores actions it does not know", async () => {
    fake.nextTranscripts([
      { transcript: 'new paragraph', action: 'NewParagraph' },
      { transcript: 'stop mic', action: 'stopmic' },
      { transcript: 'select all', action: 'selectall' },
      'impression',
    ]);
    const { stream, finals } = await record(createAugnitoProvider(configFor({ noiseCut: false })));
    await stream.end();
    expect(finals).toEqual([
      ['new paragraph', [{ kind: 'command', command: 'new-paragraph' }]],
      ['stop mic', [{ kind: 'command', command: 'stop-dictation' }]],
      ['impression', null],
    ]);
    expect(fake.streams.at(-1)?.query.noisect).toBe('0');
  });

  it('reports a refused key as ENGINE_REFUSED_CREDENTIALS, without the key in the message', async () => {
    const { stream, failed, errors } = await record(
      createAugnitoProvider(configFor({ accessKey: 'not-the-key' })),
    );
    const error = await failed;
    expect(error).toBeInstanceOf(SpeechEngineError);
    expect(error.code).toBe('ENGINE_REFUSED_CREDENTIALS');
    expect(error.message).not.toContain('not-the-key');
    expect(fake.streams.at(-1)?.refused).toBe(true);
    // The stream is over: writing is ignored and end() has nothing left to wait for.
    stream.write(audio(320));
    await stream.end();
    expect(errors).toHaveLength(1);
  });

  it('refuses to open with ENGINE_UNAVAILABLE when nothing listens at the address', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const provider = createAugnitoProvider(configFor({ serverUrl: `ws://127.0.0.1:${port}/v2/speechapi` }));
    await expect(record(provider)).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
  });

  it('reads an HTTP refusal of the upgrade: 401/403 as refused credentials, others as engine unavailable', async () => {
    const answers = [401, 403, 503];
    const http = createHttpServer((_request, response) => {
      response.writeHead(answers.shift() ?? 500);
      response.end();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    try {
      const provider = createAugnitoProvider(configFor({ serverUrl: `ws://127.0.0.1:${port}/v2/speechapi` }));
      await expect(record(provider)).rejects.toMatchObject({ code: 'ENGINE_REFUSED_CREDENTIALS' });
      await expect(record(provider)).rejects.toMatchObject({ code: 'ENGINE_REFUSED_CREDENTIALS' });
      await expect(record(provider)).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });

  it('times out (ENGINE_TIMEOUT) when the engine takes the connection but never answers the handshake', async () => {
    const held: Socket[] = [];
    const silent = createTcpServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const provider = createAugnitoProvider(
        configFor({ serverUrl: `ws://127.0.0.1:${port}/v2/speechapi`, timeoutMs: 200 }),
      );
      await expect(record(provider)).rejects.toMatchObject({ code: 'ENGINE_TIMEOUT' });
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('times out (ENGINE_TIMEOUT) when the engine hangs after connecting: onError once, end() rejects', async () => {
    fake.failNext('hang');
    const { stream, failed, errors } = await record(createAugnitoProvider(configFor({ timeoutMs: 200 })));
    stream.write(audio(3_200));
    await expect(stream.end()).rejects.toMatchObject({ code: 'ENGINE_TIMEOUT' });
    expect((await failed).code).toBe('ENGINE_TIMEOUT');
    expect(errors).toHaveLength(1);
  });

  it('reports an ERROR from the engine, and the next stream on the same provider works (resume)', async () => {
    const provider = createAugnitoProvider(configFor());
    fake.failNext('error');
    const broken = await record(provider);
    broken.stream.write(audio(3_200));
    expect((await broken.failed).code).toBe('ENGINE_UNAVAILABLE');

    fake.nextTranscripts(['dictation resumed']);
    const resumed = await record(provider);
    resumed.stream.write(audio(3_200));
    await resumed.stream.end();
    expect(resumed.finals).toEqual([['dictation resumed', null]]);
    expect(resumed.errors).toEqual([]);
  });

  it('refuses audio that is not whole 16-bit samples, and ends at once after abort()', async () => {
    const { stream } = await record(createAugnitoProvider(configFor()));
    expect(() => stream.write(audio(3))).toThrow(SpeechEngineError);
    stream.abort();
    await expect(stream.end()).resolves.toBeUndefined();
  });
});
