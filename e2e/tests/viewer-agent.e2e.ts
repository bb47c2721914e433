import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startE2eServer } from '../support/server.ts';

describe('the workstation viewer agent', () => {
  it('downloads from the built server as one file that runs with Node alone and answers only its RIS', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ris-e2e-agent-'));
    const server = await startE2eServer({ embedded: true });
    try {
      const download = await fetch(`${server.url}/downloads/ris-viewer-agent.js`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toContain('ris-viewer-agent.js');
      // A copy alone in an empty folder: no node_modules, no other file of the project.
      await writeFile(path.join(dir, 'ris-viewer-agent.js'), Buffer.from(await download.arrayBuffer()));
      const started = spawn(
        process.execPath,
        [path.join(dir, 'ris-viewer-agent.js'), '--ris', server.url, '--port', '0'],
        {
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let output = '';
          started.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
            if (match?.[1]) resolve(match[1]);
          });
          started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          started.once('exit', (code) => reject(new Error(`agent exited with ${code}: ${output}`)));
        });
        const mine = await fetch(`${url}/`, { headers: { origin: new URL(server.url).origin } });
        expect(mine.status).toBe(200);
        expect(await mine.json()).toMatchObject({ name: 'ris-viewer-agent', token: expect.any(String) });
        const other = await fetch(`${url}/`, { headers: { origin: 'https://elsewhere.example' } });
        expect(other.status).toBe(403);
      } finally {
        started.kill();
      }
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
