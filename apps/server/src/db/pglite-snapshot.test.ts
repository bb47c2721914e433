import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initialiseFromSnapshot } from './pglite-snapshot.ts';

let root: string;
let snapshot: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'ris-snapshot-'));
  snapshot = path.join(root, 'snapshot');
  await mkdir(path.join(snapshot, 'base', '1'), { recursive: true });
  await writeFile(path.join(snapshot, 'PG_VERSION'), '18\n');
  await writeFile(path.join(snapshot, 'base', '1', '1259'), 'catalog');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('initialiseFromSnapshot', () => {
  it('copies the snapshot into a new data directory, leaving nothing half-copied beside it', async () => {
    const dataDir = path.join(root, 'data', 'pglite');
    expect(await initialiseFromSnapshot(dataDir, snapshot)).toBe(true);
    expect(await readFile(path.join(dataDir, 'base', '1', '1259'), 'utf8')).toBe('catalog');
    expect(await readdir(path.join(root, 'data'))).toEqual(['pglite']);
  });

  it('fills an empty directory made beforehand', async () => {
    const dataDir = path.join(root, 'empty');
    await mkdir(dataDir);
    expect(await initialiseFromSnapshot(dataDir, snapshot)).toBe(true);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  });

  it('never touches a directory that already holds a database, and needs a snapshot', async () => {
    const dataDir = path.join(root, 'existing');
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'PG_VERSION'), '18\n');
    expect(await initialiseFromSnapshot(dataDir, snapshot)).toBe(false);
    expect(existsSync(path.join(dataDir, 'base'))).toBe(false);
    expect(await initialiseFromSnapshot(path.join(root, 'other'), path.join(root, 'no-snapshot'))).toBe(
      false,
    );
    expect(existsSync(path.join(root, 'other'))).toBe(false);
  });
});
