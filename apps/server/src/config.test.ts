import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
