import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS_FOLDER } from '../db/migrate.ts';

/** A short hash of every committed migration, so a test template is rebuilt when one changes. */
export async function migrationsFingerprint(): Promise<string> {
  const files = (await readdir(MIGRATIONS_FOLDER)).filter((file) => file.endsWith('.sql')).sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(await readFile(path.join(MIGRATIONS_FOLDER, file)));
  return hash.digest('hex').slice(0, 12);
}
