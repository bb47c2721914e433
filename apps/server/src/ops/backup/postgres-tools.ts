import { spawn } from 'node:child_process';

/**
 * How pg_dump/pg_restore reach DATABASE_URL without its password on their command line (which any
 * user of the machine can read in `ps`): the URL without the password goes in `--dbname` (it keeps
 * host, port, user, database and options such as sslmode), the password in PGPASSWORD, which only
 * the same user (or root) can read from the process's environment.
 */
export function libpqConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  // libpq (and node-postgres) also take the password as a query parameter.
  const password = decodeURIComponent(url.password) || url.searchParams.get('password') || '';
  url.password = '';
  url.searchParams.delete('password');
  // A PGPASSWORD or other PG* variable from the caller's shell must not override the URL's.
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('PG')),
  );
  if (password) env.PGPASSWORD = password;
  return { dbname: url.toString(), env };
}

/** Runs a PostgreSQL client tool; rejects with its standard error (which never holds the password). */
export async function runPgTool(
  tool: 'pg_dump' | 'pg_restore',
  args: readonly string[],
  databaseUrl: string,
): Promise<void> {
  const { dbname, env } = libpqConnection(databaseUrl);
  const child = spawn(tool, [...args, `--dbname=${dbname}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 20_000) stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) => {
      const missing = 'code' in error && error.code === 'ENOENT';
      reject(
        missing ? new Error(`${tool} is not installed (Debian: apt-get install postgresql-client)`) : error,
      );
    });
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`${tool} failed (exit ${code}): ${stderr.trim()}`);
}
