import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const TOKEN_SECRET_FILE = 'auth-token-secret';

export type TTokenSecret = {
  secret: Uint8Array;
  source: 'config' | 'file' | 'generated';
  file: string | null;
};

/**
 * The ID-token signing key: AUTH_TOKEN_SECRET when set; otherwise a random secret generated once and
 * kept in DATA_DIR (mode 0600) so a restart keeps sessions valid. Replicas must share the variable.
 */
export async function resolveTokenSecret(configured: string | null, dataDir: string): Promise<TTokenSecret> {
  if (configured) return { secret: new TextEncoder().encode(configured), source: 'config', file: null };
  const file = path.join(dataDir, TOKEN_SECRET_FILE);
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length < 43)
      throw new Error(`${file} does not hold a valid secret: delete it or set AUTH_TOKEN_SECRET`);
    return { secret: Buffer.from(stored, 'base64url'), source: 'file', file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48);
  // 'wx': two processes racing on a first start cannot overwrite each other's secret.
  try {
    await writeFile(file, `${secret.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return resolveTokenSecret(null, dataDir);
    throw error;
  }
  await chmod(file, 0o600);
  return { secret, source: 'generated', file };
}
