// `npm run restore -- <backup folder> [--force]`: restores a backup made by `npm run backup` into
// the configured database (DATABASE_URL: an empty database; else the embedded one in DATA_DIR) and
// the local file store, then checks every report, version and file. Stop the RIS servers first.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config.ts';
import { BackupRefusedError } from './manifest.ts';
import { restoreBackup } from './restore.ts';

const invocationDir = process.env.INIT_CWD ?? process.cwd();

try {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false } },
  });
  const [backup, ...rest] = positionals;
  if (!backup || rest.length > 0) {
    throw new BackupRefusedError('usage: npm run restore -- <backup folder> [--force]');
  }
  const config = loadConfig();
  const started = performance.now();
  const summary = await restoreBackup({
    backupDir: path.resolve(invocationDir, backup),
    database: config.database,
    dataDir: config.dataDir,
    tokenSecret: config.auth.tokenSecret,
    force: values.force,
  });
  const { counts, manifest } = summary;
  const lines = [
    `Restored the backup of ${manifest.createdAt} in ${((performance.now() - started) / 1000).toFixed(1)} s (checksums, rows and files checked)`,
    `  database: ${counts.reports} reports, ${counts.reportVersions} report versions, ${counts.storedFiles} stored files`,
    `  files restored into ${path.join(config.dataDir, 'files')}: ${summary.filesRestored}`,
    '  The server applies any newer migrations when it starts.',
  ];
  for (const problem of summary.knownProblems) {
    lines.push(
      `  WARNING: file ${problem.storageKey} was already ${problem.problem} when the backup was made`,
    );
  }
  for (const warning of summary.warnings) lines.push(`  WARNING: ${warning}`);
  for (const aside of summary.replaced) lines.push(`  What was there before is kept in ${aside}`);
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  const refused = error instanceof ConfigError || error instanceof BackupRefusedError;
  process.stderr.write(
    `${refused ? 'Restore refused' : 'Restore failed; nothing was put in place'}: ${message}\n`,
  );
  process.exitCode = 1;
}
