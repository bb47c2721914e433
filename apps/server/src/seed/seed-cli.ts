// `npm run seed:demo`: seeds the demo organisation into the configured database (DATABASE_URL or the
// embedded one) if, and only if, it is empty. Applies migrations first.
import { mkdir } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabaseFast } from '../db/pglite-snapshot.ts';
import { runMigrations } from '../db/migrate.ts';
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from './demo.ts';

try {
  const config = loadConfig();
  await mkdir(config.dataDir, { recursive: true });
  const database = await openDatabaseFast(config.database);
  try {
    await runMigrations(database);
    const seeded = await seedDemoIfEmpty(database.db, { password: config.demoPassword });
    if (seeded) {
      process.stdout.write(
        `Seeded "Demo Teleradiology". Sign in with (password from RIS_DEMO_PASSWORD):\n${DEMO_ACCOUNTS.map((a) => `  ${a.email}`).join('\n')}\n`,
      );
    } else {
      process.stdout.write('The database is not empty; the demo seed changed nothing.\n');
    }
  } finally {
    await database.close();
  }
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
