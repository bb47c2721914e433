import type { TSpeechOptions, TSpeechSettings } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { pocketsphinxAvailable } from '../../integrations/speech/pocketsphinx/pocketsphinx-provider.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

const PATH = '/api/v1/organisation/speech-settings';
const KEY = 'AUGNITO-SECRET-KEY-9f3a';
let server: TTestServer;
let tokens: Record<'admin' | 'facilityAdmin' | 'radiologist' | 'outsider', string>;
let organisationId: string;
let outsiderOrganisationId: string;

beforeAll(async () => {
  server = await startTestServer({ env: { SPEECH_ALLOWED_HOSTS: 'api.augnito.ai,127.0.0.1' } });
  const facility = await buildFacility(server.db);
  organisationId = facility.organisationId;
  outsiderOrganisationId = (await buildFacility(server.db)).organisationId;
  const users = {
    admin: await buildUser(server.db, { role: 'ADMIN', organisationId }),
    facilityAdmin: await buildUser(server.db, { role: 'FACILITY_ADMIN', facilities: [facility] }),
    radiologist: await buildUser(server.db, { facilities: [facility] }),
    outsider: await buildUser(server.db, { role: 'ADMIN', organisationId: outsiderOrganisationId }),
  };
  tokens = {
    admin: await tokenFor(server, users.admin),
    facilityAdmin: await tokenFor(server, users.facilityAdmin),
    radiologist: await tokenFor(server, users.radiologist),
    outsider: await tokenFor(server, users.outsider),
  };
});
afterAll(async () => {
  await server.close();
});

const call = (who: keyof typeof tokens, method: string, body?: unknown, path = PATH) =>
  server.request(method, path, { token: tokens[who], ...(body === undefined ? {} : { body }) });

async function storedRow(id = organisationId) {
  const [row] = await server.db
    .select()
    .from(t.organisationSpeechSettings)
    .where(eq(t.organisationSpeechSettings.organisationId, id));
  return row ?? null;
}

const augnito = { account_code: 'acct-1', lm_id: '201', access_key: KEY };

describe('speech settings', () => {
  it('answers the defaults before any change: PocketSphinx when installed, else off', async () => {
    const response = await call('admin', 'GET');
    expect(response.status).toBe(200);
    const settings = response.json as TSpeechSettings;
    expect(settings).toMatchObject({
      provider: pocketsphinxAvailable() ? 'pocketsphinx' : 'off',
      pocketsphinx_available: pocketsphinxAvailable(),
      language_model: null,
      augnito: {
        server_url: 'wss://api.augnito.ai/v2/speechapi',
        account_code: '',
        lm_id: '',
        has_access_key: false,
      },
      browser_speech_allowed: false,
      recording_retention_days: 90,
    });
  });

  it('lets an admin choose Augnito; the key is sealed, stored and never sent back', async () => {
    const response = await call('admin', 'PUT', { provider: 'augnito', augnito });
    expect(response.status).toBe(200);
    expect(response.text).not.toContain(KEY);
    expect((response.json as TSpeechSettings).augnito).toEqual({
      server_url: 'wss://api.augnito.ai/v2/speechapi',
      account_code: 'acct-1',
      lm_id: '201',
      has_access_key: true,
    });
    const row = await storedRow();
    expect(row?.provider).toBe('augnito');
    expect(row?.augnitoAccessKeySealed).toMatch(/^v1\./);
    expect(row?.augnitoAccessKeySealed).not.toContain(KEY);
    expect(server.app.secretBox.open(row?.augnitoAccessKeySealed ?? '')).toBe(KEY);
    const audit = await server.db
      .select()
      .from(t.auditEvents)
      .where(eq(t.auditEvents.action, 'speech_settings.updated'));
    expect(audit.at(-1)).toMatchObject({
      organisationId,
      data: { provider: 'augnito', access_key: 'replaced' },
    });
    expect(JSON.stringify(audit)).not.toContain(KEY);
    const read = await call('admin', 'GET');
    expect(read.text).not.toContain(KEY);
    expect((read.json as TSpeechSettings).augnito.has_access_key).toBe(true);
  });

  it('keeps the key when it is left out and clears it with an empty text', async () => {
    const kept = await call('admin', 'PUT', { browser_speech_allowed: true, recording_retention_days: 30 });
    expect(kept.status).toBe(200);
    expect(kept.json).toMatchObject({
      provider: 'augnito',
      browser_speech_allowed: true,
      recording_retention_days: 30,
      augnito: { has_access_key: true },
    });
    const off = await call('admin', 'PUT', { provider: 'off', augnito: { access_key: '' } });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ provider: 'off', augnito: { has_access_key: false } });
    expect((await storedRow())?.augnitoAccessKeySealed).toBeNull();
  });

  it('refuses Augnito without its account code, lm id or key, naming the field', async () => {
    for (const [missing, body] of [
      ['augnito.account_code', { ...augnito, account_code: '' }],
      ['augnito.lm_id', { ...augnito, lm_id: '' }],
      ['augnito.access_key', { account_code: 'acct-1', lm_id: '201' }],
    ] as const) {
      const response = await call('admin', 'PUT', { provider: 'augnito', augnito: body });
      expect(response.status, missing).toBe(400);
      expect(response.json).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
      expect((response.json as { error: { message: string } }).error.message).toContain(missing);
    }
    expect((await storedRow())?.provider).toBe('off');
  });

  it('refuses an engine address that is not wss:// or whose host is not allowed', async () => {
    for (const server_url of [
      'https://api.augnito.ai/v2/speechapi',
      'wss://evil.example/v2/speechapi',
      'ws://localhost:9/v2/speechapi',
    ]) {
      const response = await call('admin', 'PUT', {
        provider: 'augnito',
        augnito: { ...augnito, server_url },
      });
      expect(response.status, server_url).toBe(400);
      expect((response.json as { error: { message: string } }).error.message).toContain('augnito.server_url');
    }
    // ws:// to a host the operator listed by name (SPEECH_ALLOWED_HOSTS has 127.0.0.1 here).
    const local = await call('admin', 'PUT', { augnito: { server_url: 'ws://127.0.0.1:9/v2/speechapi' } });
    expect(local.status).toBe(200);
    const schema = await call('admin', 'PUT', { augnito: { server_url: 'not a url' } });
    expect(schema.status).toBe(400);
    expect(schema.text).toContain('augnito.server_url');
  });

  it('refuses PocketSphinx where it is not installed, and out-of-range retention', async () => {
    const response = await call('admin', 'PUT', { provider: 'pocketsphinx' });
    expect(response.status).toBe(pocketsphinxAvailable() ? 200 : 400);
    const retention = await call('admin', 'PUT', { recording_retention_days: 0 });
    expect(retention.status).toBe(400);
    expect(retention.text).toContain('recording_retention_days');
  });

  it('lets a facility admin read but not change; a radiologist neither', async () => {
    const before = await storedRow();
    expect((await call('facilityAdmin', 'GET')).status).toBe(200);
    const change = await call('facilityAdmin', 'PUT', { provider: 'off' });
    expect(change.status).toBe(403);
    expect((await call('radiologist', 'GET')).status).toBe(403);
    expect((await call('radiologist', 'PUT', { provider: 'off' })).status).toBe(403);
    expect(await storedRow()).toEqual(before);
  });

  it("keeps another organisation's admin to their own organisation's settings", async () => {
    const before = await storedRow();
    const response = await call('outsider', 'PUT', { provider: 'browser', browser_speech_allowed: true });
    expect(response.status).toBe(200);
    expect(await storedRow()).toEqual(before);
    expect((await storedRow(outsiderOrganisationId))?.provider).toBe('browser');
  });

  it('tells every signed-in user what the reporting screen offers, without keys or addresses', async () => {
    await call('admin', 'PUT', { provider: 'augnito', augnito });
    const response = await call('radiologist', 'GET', undefined, '/api/v1/speech/options');
    expect(response.status).toBe(200);
    expect(response.json as TSpeechOptions).toEqual({ provider: 'augnito', browser_speech_allowed: true });
    expect(response.text).not.toContain(KEY);
    expect(response.text).not.toContain('augnito.ai');
    const outsider = await call('outsider', 'GET', undefined, '/api/v1/speech/options');
    expect(outsider.json).toEqual({ provider: 'browser', browser_speech_allowed: true });
    expect((await server.request('GET', '/api/v1/speech/options')).status).toBe(401);
  });
});
