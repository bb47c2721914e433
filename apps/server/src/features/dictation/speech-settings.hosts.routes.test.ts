// Speech settings on a server without SPEECH_ALLOWED_HOSTS: any public wss:// host may be named, but
// not this machine, a private network nor a cloud metadata address.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

const PATH = '/api/v1/organisation/speech-settings';
const augnito = { account_code: 'acct-1', lm_id: '201', access_key: 'AUGNITO-HOSTS-KEY-51d2' };
let server: TTestServer;
let token: string;
let organisationId: string;

beforeAll(async () => {
  server = await startTestServer();
  const facility = await buildFacility(server.db);
  organisationId = facility.organisationId;
  token = await tokenFor(server, await buildUser(server.db, { role: 'ADMIN', organisationId }));
});
afterAll(async () => {
  await server.close();
});

const stored = async () =>
  (
    await server.db
      .select()
      .from(t.organisationSpeechSettings)
      .where(eq(t.organisationSpeechSettings.organisationId, organisationId))
  )[0] ?? null;

describe('speech settings without SPEECH_ALLOWED_HOSTS', () => {
  it('refuses local, private and metadata addresses naming the field, and changes nothing', async () => {
    for (const server_url of [
      'wss://127.0.0.1/v2/speechapi',
      'wss://127.1.2.3:8443/v2/speechapi',
      'wss://2130706433/v2/speechapi',
      'wss://localhost/v2/speechapi',
      'wss://api.localhost./v2/speechapi',
      'wss://[::1]/v2/speechapi',
      'wss://[::ffff:127.0.0.1]/v2/speechapi',
      'wss://169.254.169.254/latest/meta-data',
      'wss://[fd00:ec2::254]/v2/speechapi',
      'wss://10.0.0.5/v2/speechapi',
      'wss://192.168.1.1/v2/speechapi',
      'wss://0.0.0.0/v2/speechapi',
    ]) {
      const response = await server.request('PUT', PATH, {
        token,
        body: { provider: 'augnito', augnito: { ...augnito, server_url } },
      });
      expect(response.status, server_url).toBe(400);
      expect(response.json).toMatchObject({
        error: { code: expect.any(String), message: expect.stringContaining('augnito.server_url') },
      });
      expect(response.text).not.toContain(augnito.access_key);
    }
    expect(await stored()).toBeNull();
  });

  it('takes a public wss:// host', async () => {
    const response = await server.request('PUT', PATH, {
      token,
      body: {
        provider: 'augnito',
        augnito: { ...augnito, server_url: 'wss://speech.example.com/v2/speechapi' },
      },
    });
    expect(response.status).toBe(200);
    expect((await stored())?.augnitoServerUrl).toBe('wss://speech.example.com/v2/speechapi');
  });

  it('sends a stored key only where it was given: another host needs it again', async () => {
    const put = (body: object) => server.request('PUT', PATH, { token, body: { augnito: body } });
    const before = await stored();
    const moved = await put({ server_url: 'wss://collector.example.net/v2/speechapi' });
    expect(moved.status).toBe(400);
    expect(moved.json).toMatchObject({
      error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('augnito.access_key') },
    });
    expect(await stored()).toEqual(before);
    // Another path on the same host keeps it; another host with the key given again takes it.
    expect((await put({ server_url: 'wss://speech.example.com/v3/speechapi' })).status).toBe(200);
    const again = await put({
      server_url: 'wss://collector.example.net/v2/speechapi',
      access_key: 'NEW-KEY-7',
    });
    expect(again.status).toBe(200);
    const row = await stored();
    expect(row?.augnitoServerUrl).toBe('wss://collector.example.net/v2/speechapi');
    expect(server.app.secretBox.open(row?.augnitoAccessKeySealed ?? '')).toBe('NEW-KEY-7');
  });
});
