// `npm run backup [-- <folder>]`: writes a backup of the configured database (DATABASE_URL, or the
// embedded one in DATA_DIR) and of the local file store into <folder> (default ./backups), as one
// directory named after the time. Exits 1 when it cannot; 2 when it was written but some files
// named by the database were missing or damaged in the file store (listed).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config.ts';
import { createBackup } from './backup.ts';
import { BackupRefusedError } from './manifest.ts';

const invocationDir = process.env.INIT_CWD ?? process.cwd();

try {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  if (positionals.length > 1) throw new BackupRefusedError('usage: npm run backup [-- <folder>]');
  const config = loadConfig();
  const outputDir = path.resolve(invocationDir, positionals[0] ?? 'backups');
  const started = performance.now();
  const { dir, manifest } = await createBackup({
    database: config.database,
    dataDir: config.dataDir,
    outputDir,
    tokenSecret: config.auth.tokenSecret,
    objectStorageBucket: config.s3?.bucket ?? null,
  });
  const { counts } = manifest;
  const lines = [
    `Backup written to ${dir} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    `  database: ${manifest.databaseKind}, ${manifest.migrations.applied} migrations, ${counts.reports} reports, ${counts.reportVersions} report versions, ${counts.storedFiles} stored files`,
    `  files copied: ${manifest.files.length}`,
  ];
  if (manifest.objectStorage.storedFiles > 0) {
    lines.push(
      `  in object storage (not copied; the bucket's versioning is their backup): ${manifest.objectStorage.storedFiles} in ${manifest.objectStorage.bucket ?? 'a bucket no longer configured'}`,
    );
  }
  for (const problem of manifest.problems) {
    lines.push(`  WARNING: file ${problem.storageKey} was ${problem.problem} in the file store`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  if (manifest.problems.length > 0) process.exitCode = 2;
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const refused = error instanceof ConfigError || error instanceof BackupRefusedError;
  process.stderr.write(`${refused ? 'Backup refused' : 'Backup failed'}: ${message}\n`);
  process.exitCode = 1;
}
