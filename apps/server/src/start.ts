import { mkdir } from 'node:fs/promises';
import closeWithGrace from 'close-with-grace';
import { eq } from 'drizzle-orm';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type TConfig } from './config.ts';
import { runMigrations } from './db/migrate.ts';
import { openDatabaseFast } from './db/pglite-snapshot.ts';
import { pacsArchives } from './db/schema/index.ts';
import { openBlobStore } from './files/open-blob-store.ts';
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from './seed/demo.ts';

function readConfig(): TConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee .env.example for every variable and its format.\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** What the banner says about images: the archives studies come from, or how to connect one. */
function imagesLine(config: TConfig, archives: number): string {
  if (archives > 0)
    return `  Images: ${archives} image archive${archives === 1 ? '' : 's'} connected; new studies reach the worklist by themselves`;
  if (config.viewers.dicomwebUrl)
    return '  Images: viewed from PACS_DICOMWEB_URL; no archive syncs studies yet';
  return "  Images: no image archive connected (Organisation → Archives), or try `npm run pacs:demo` with Debian's orthanc";
}

function banner(config: TConfig, seeded: boolean, address: string, archives: number): string {
  const lines = [
    '',
    `  RIS is running at ${config.publicUrl}  (listening on ${address})`,
    `  Database: ${config.database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.database.dataDir}`}`,
    `  API reference: ${config.publicUrl}/api/docs`,
    `  Files: ${config.s3 ? `S3 bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${new URL(config.s3.endpoint).host}` : ''}` : `on disk in ${config.dataDir}/files`}`,
    imagesLine(config, archives),
  ];
  if (seeded || config.database.kind === 'pglite') {
    lines.push(`  Demo accounts (password from RIS_DEMO_PASSWORD, default "demo-radiology"):`);
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.email.padEnd(28)} ${account.label}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/** Milliseconds since process start at the end of each start-up phase, logged with "ready". */
const phases: Record<string, number> = { modules: Math.round(performance.now()) };
const mark = (phase: string) => (phases[phase] = Math.round(performance.now()));

const config = readConfig();
await mkdir(config.dataDir, { recursive: true });
const database = await openDatabaseFast(config.database);
mark('database');
await runMigrations(database);
mark('migrations');
const shouldSeed =
  config.seedDemo === 'true' || (config.seedDemo === 'auto' && config.database.kind === 'pglite');
const seeded = shouldSeed ? await seedDemoIfEmpty(database.db, { password: config.demoPassword }) : false;
mark('seed');
const blobs = openBlobStore(config);
const app = await buildApp({ config, database, blobs });
mark('app');

closeWithGrace({ delay: config.shutdownTimeoutMs }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'shutting down after an error');
  else app.log.info({ signal }, 'shutting down: draining requests');
  await app.close();
  await database.close();
});

const address = await app.listen({ host: config.host, port: config.port });
app.log.info(
  { startup_ms: Math.round(performance.now()) /* since process start */, startup_phases: phases, seeded },
  'ready',
);
blobs.checkReachable(5_000).catch((err: unknown) => {
  app.log.error(
    { err },
    `file store (${blobs.driver}) unreachable: uploads and documents fail until it answers`,
  );
});
const archives = await database.db.$count(pacsArchives, eq(pacsArchives.enabled, true));
process.stdout.write(banner(config, seeded, address, archives));
