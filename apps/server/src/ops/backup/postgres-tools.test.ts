import { describe, expect, it } from 'vitest';
import { libpqConnection } from './postgres-tools.ts';

// pg_dump and pg_restore get DATABASE_URL in --dbname, on their command line (readable in `ps` by
// every user of the machine): the password must never be in it, wherever the URL puts it.
describe('libpqConnection', () => {
  it('moves the password out of the URL into PGPASSWORD', () => {
    const { dbname, env } = libpqConnection('postgres://ris:p%40ss@db:5432/ris?sslmode=require');
    expect(dbname).toBe('postgres://ris@db:5432/ris?sslmode=require');
    expect(env.PGPASSWORD).toBe('p@ss');
  });

  it('moves a password given as a query parameter too', () => {
    const { dbname, env } = libpqConnection('postgres://ris@db/ris?password=s3cret&sslmode=require');
    expect(dbname).not.toContain('s3cret');
    expect(dbname).toBe('postgres://ris@db/ris?sslmode=require');
    expect(env.PGPASSWORD).toBe('s3cret');
  });
});
