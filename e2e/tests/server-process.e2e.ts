import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, serverMain, startE2eServer } from '../support/server.ts';

describe('server process', () => {
  it('stops cleanly on SIGTERM and starts again on the same embedded database', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ris-e2e-restart-'));
    try {
      const first = await startE2eServer({
        dataDir,
        embedded: true,
        env: { RIS_SEED_DEMO: 'true', LOG_LEVEL: 'info' },
      });
      expect(first.output()).toContain('admin@demo.test');
      // Without an archive the RIS works as before and says how to connect one.
      expect(first.output()).toContain('no image archive connected');
      expect(first.output()).toContain('npm run pacs:demo');
      expect(await first.close()).toBe(0);
      expect(first.output()).toContain('shutting down');

      const second = await startE2eServer({
        dataDir,
        embedded: true,
        env: { RIS_SEED_DEMO: 'true', LOG_LEVEL: 'info' },
      });
      const ready = await fetch(`${second.url}/readyz`);
      expect(ready.status).toBe(200);
      // The demo seed ran once: the second start found a database in use and left it alone.
      expect(first.output()).toContain('"seeded":true');
      expect(second.output()).toContain('"seeded":false');
      expect(await second.close()).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start with a bad setting and names the variable', async () => {
    const child = spawn(process.execPath, [serverMain], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, PORT: 'eighty', DATABASE_URL: 'mysql://nope' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('DATABASE_URL');
  });
});
