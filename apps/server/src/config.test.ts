import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to the embedded database under ./data on port 8080', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.database.kind).toBe('pglite');
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.demoPassword).toBe('demo-radiology');
    expect(path.isAbsolute(config.dataDir)).toBe(true);
  });

  it('selects PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://ris@db.internal:5432/ris',
      DATABASE_POOL_SIZE: '20',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://ris@db.internal:5432/ris',
      poolSize: 20,
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).database.kind).toBe('pglite');
  });

  it('rejects bad values with a message naming each variable', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as ConfigError).message;
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('LOG_LEVEL');
    expect((caught as ConfigError).issues).toHaveLength(3);
  });

  it('refuses a demo password shorter than 8 characters', () => {
    expect(() => loadConfig({ RIS_DEMO_PASSWORD: 'short' })).toThrow(/RIS_DEMO_PASSWORD/);
  });

  it('reads the identity settings with safe defaults', () => {
    const config = loadConfig({});
    expect(config.auth).toMatchObject({
      tokenSecret: null,
      idTokenTtlSeconds: 3600,
      refreshTtlDays: 30,
      passwordMinLength: 8,
      signupEnabled: true,
      revealAccountErrors: false,
      maxFailuresPerAccount: 10,
      maxFailuresPerAccountAllIps: 50,
      maxAccountsPerIp: 20,
      failureWindowMinutes: 60,
      backoffBaseSeconds: 5,
      backoffMaxSeconds: 900,
      deviceCookieDays: 180,
      resetTokenTtlMinutes: 60,
      emailLinkTtlMinutes: 15,
    });
    expect(config.mail).toEqual({ smtpUrl: null, from: 'RIS <no-reply@localhost>' });
    expect(loadConfig({ AUTH_SIGNUP_ENABLED: 'false' }).auth.signupEnabled).toBe(false);
  });

  it('refuses a password minimum below 6, a short token secret and a non-SMTP mail URL', () => {
    expect(() => loadConfig({ AUTH_PASSWORD_MIN_LENGTH: '5' })).toThrow(/AUTH_PASSWORD_MIN_LENGTH/);
    expect(() => loadConfig({ AUTH_TOKEN_SECRET: 'too-short' })).toThrow(/AUTH_TOKEN_SECRET/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.org' })).toThrow(/SMTP_URL/);
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.org:465' }).mail.smtpUrl).toBe(
      'smtps://u:p@mail.example.org:465',
    );
  });

  it('reads delivery settings: WhatsApp needs both id and token, the webhook needs its secret', () => {
    const plain = loadConfig({ MAIL_FROM: 'Reports <reports@example.org>' });
    expect(plain.whatsapp).toBeNull();
    expect(plain.finalReportWebhook).toBeNull();
    expect(plain.supportEmail).toBe('reports@example.org');
    expect(plain.jobs).toMatchObject({ enabled: true, pollIntervalMs: 1000 });
    expect(() => loadConfig({ WHATSAPP_PHONE_NUMBER_ID: '1234567890' })).toThrow(/WHATSAPP_ACCESS_TOKEN/);
    expect(() =>
      loadConfig({ WHATSAPP_PHONE_NUMBER_ID: 'abc', WHATSAPP_ACCESS_TOKEN: 'x'.repeat(20) }),
    ).toThrow(/WHATSAPP_PHONE_NUMBER_ID/);
    const whatsapp = loadConfig({
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_ACCESS_TOKEN: 'token-token-token',
      WHATSAPP_API_URL: 'http://127.0.0.1:9999/',
    }).whatsapp;
    expect(whatsapp).toEqual({
      apiUrl: 'http://127.0.0.1:9999',
      apiVersion: 'v21.0',
      phoneNumberId: '1234567890',
      accessToken: 'token-token-token',
    });
    expect(() => loadConfig({ FINAL_REPORT_WEBHOOK_URL: 'https://hooks.example.org/ris' })).toThrow(
      /FINAL_REPORT_WEBHOOK_SECRET/,
    );
    expect(
      loadConfig({
        FINAL_REPORT_WEBHOOK_URL: 'https://hooks.example.org/ris',
        FINAL_REPORT_WEBHOOK_SECRET: 'a-long-enough-secret',
      }).finalReportWebhook,
    ).toEqual({ url: 'https://hooks.example.org/ris', secret: 'a-long-enough-secret' });
    expect(() => loadConfig({ SUPPORT_EMAIL: 'not-an-address' })).toThrow(/SUPPORT_EMAIL/);
  });
});

describe('loadConfig: TRUST_PROXY', () => {
  it('takes a boolean or the proxies addresses and ranges, and names the variable otherwise', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      'fd00::/8',
    ]);
    for (const bad of ['proxy.internal', '10.0.0.0/33', '10.0.0.1,', 'maybe']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY: must be true, false, or proxy IP/);
    }
  });
});

describe('loadConfig: secrets as files (X_FILE)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ris-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const secretFile = (name: string, contents: string): string => {
    const file = path.join(dir, name);
    writeFileSync(file, contents);
    return file;
  };
  const configError = (env: NodeJS.ProcessEnv): ConfigError => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error('expected a ConfigError');
  };
  const secret = 'f'.repeat(64);

  it('reads any variable from the file X_FILE names, without its trailing line break', () => {
    const config = loadConfig({
      AUTH_TOKEN_SECRET_FILE: secretFile('auth', `${secret}\n`),
      DATABASE_URL_FILE: secretFile('database', 'postgres://ris:p%40ss@db:5432/ris\r\n'),
      PORT_FILE: secretFile('port', '9090'),
      SMTP_URL_FILE: '',
    });
    expect(config.auth.tokenSecret).toBe(secret);
    expect(config.database).toMatchObject({ url: 'postgres://ris:p%40ss@db:5432/ris' });
    expect(config.port).toBe(9090);
    expect(config.mail.smtpUrl).toBeNull();
  });

  it('refuses X and X_FILE together, naming both', () => {
    const error = configError({
      AUTH_TOKEN_SECRET: secret,
      AUTH_TOKEN_SECRET_FILE: secretFile('both', secret),
    });
    expect(error.issues).toEqual([
      'AUTH_TOKEN_SECRET and AUTH_TOKEN_SECRET_FILE: set one or the other, not both',
    ]);
  });

  it('refuses a missing, unreadable or empty file, naming X_FILE and never the contents', () => {
    const error = configError({
      REDIS_URL_FILE: path.join(dir, 'missing'),
      SMTP_URL_FILE: dir,
      WHATSAPP_ACCESS_TOKEN_FILE: secretFile('empty', '\n'),
    });
    expect(error.issues).toHaveLength(3);
    expect(error.issues).toEqual(
      expect.arrayContaining([
        `REDIS_URL_FILE: cannot read ${path.join(dir, 'missing')} (ENOENT)`,
        `SMTP_URL_FILE: cannot read ${dir} (EISDIR)`,
        `WHATSAPP_ACCESS_TOKEN_FILE: ${path.join(dir, 'empty')} is empty`,
      ]),
    );
  });

  it('refuses a file holding only spaces, tabs and line breaks', () => {
    const error = configError({ RIS_DEMO_PASSWORD_FILE: secretFile('blank', ' \t \n') });
    expect(error.issues).toEqual([
      `RIS_DEMO_PASSWORD_FILE: ${path.join(dir, 'blank')} is blank (only whitespace)`,
    ]);
  });

  it('names the file a bad value came from, without printing the value', () => {
    const error = configError({ AUTH_TOKEN_SECRET_FILE: secretFile('short', 'short-secret-value\n') });
    expect(error.issues).toEqual([
      'AUTH_TOKEN_SECRET (read from AUTH_TOKEN_SECRET_FILE): must be at least 32 characters (use 32+ random bytes)',
    ]);
    expect(error.message).not.toContain('short-secret-value');
  });
});
