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
});
