// `npm run organisation:create -- --organisation "Sunrise Imaging" --email lead@sunrise.example
//   --first-name Asha --last-name Rao [--slug sunrise] [--time-zone Asia/Kolkata]`
// Creates an organisation and its first administrator in the configured database (migrating it
// first) and prints the one-time link with which the administrator chooses a password. Exits 1 with
// a message naming the option when something is wrong; changes nothing then.
import { mkdir } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config.ts';
import { runMigrations } from '../../db/migrate.ts';
import { openDatabaseFast } from '../../db/pglite-snapshot.ts';
import { AppError } from '../../http/app-error.ts';
import { createOrganisationWithAdmin } from './create-organisation.ts';

const USAGE =
  'Usage: npm run organisation:create -- --organisation <name> --email <admin e-mail> --first-name <name> --last-name <name> [--slug <short-name>] [--time-zone <IANA zone>]';

try {
  const { values } = parseArgs({
    options: {
      organisation: { type: 'string' },
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      slug: { type: 'string' },
      'time-zone': { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  await mkdir(config.dataDir, { recursive: true });
  const database = await openDatabaseFast(config.database);
  try {
    await runMigrations(database);
    const created = await createOrganisationWithAdmin(
      database.db,
      {
        organisation: values.organisation ?? '',
        email: values.email ?? '',
        firstName: values['first-name'] ?? '',
        lastName: values['last-name'] ?? '',
        slug: values.slug,
        timeZone: values['time-zone'],
      },
      { publicUrl: config.publicUrl },
    );
    process.stdout.write(
      [
        `Created the organisation "${values.organisation ?? ''}" (${created.slug}) and its administrator ${values.email ?? ''}.`,
        `Give them this link to choose a password (it works once, for ${created.link.ttlMinutes / 1440} days):`,
        `  ${created.link.link}`,
        'They then add facilities and invite people under Organisation and Users.',
        '',
      ].join('\n'),
    );
  } finally {
    await database.close();
  }
} catch (error) {
  const known = error instanceof ConfigError || error instanceof AppError;
  const parseError = error instanceof TypeError && 'code' in error;
  process.stderr.write(
    `${known || parseError ? error.message : String(error)}${parseError ? `\n${USAGE}` : ''}\n`,
  );
  process.exitCode = 1;
}
