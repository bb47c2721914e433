import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTokenSecret, TOKEN_SECRET_FILE } from '../../auth/token-secret.ts';
import { openDatabase, type TDb } from '../../db/client.ts';
import { runMigrations } from '../../db/migrate.ts';
import { initialiseFromSnapshot } from '../../db/pglite-snapshot.ts';
import * as t from '../../db/schema/index.ts';
import { LocalDiskBlobStore } from '../../files/local-disk-store.ts';
import { storeFile } from '../../files/stored-files.ts';
import { buildReport, buildStudy, buildUser } from '../../test/factories.ts';
import { pngDeclaring } from '../../test/png.ts';
import { createBackup } from './backup.ts';
import { MANIFEST_FILE, readManifest, writeManifest } from './manifest.ts';
import { restoreBackup } from './restore.ts';

let temp: string;
beforeAll(async () => {
  temp = await mkdtemp(path.join(os.tmpdir(), 'ris-backup-'));
});
afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

const PDF = Buffer.from(
  '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

/** A final report with two edits and an addendum, a key image and a PDF, in `db` and `filesRoot`. */
async function buildBackupWorld(db: TDb, filesRoot: string): Promise<void> {
  const study = await buildStudy(db);
  const user = await buildUser(db, { organisationId: study.organisationId });
  const report = await buildReport(db, {
    study,
    text: 'Final impression.\nNo acute findings.',
    status: 'COMPLETED',
  });
  await db.insert(t.reportVersions).values([
    { reportId: report.id, version: 1, kind: 'EDIT', content: '<p>Draft</p>', createdBy: user.id },
    {
      reportId: report.id,
      version: 2,
      kind: 'EDIT',
      content: '<p>Final impression.</p>',
      createdBy: user.id,
    },
    {
      reportId: report.id,
      version: 3,
      kind: 'ADDENDUM',
      content: '<p>Addendum: see prior.</p>',
      createdBy: user.id,
    },
  ]);
  const blobs = new LocalDiskBlobStore(filesRoot);
  const store = (data: Buffer, originalName: string) =>
    storeFile(db, blobs, {
      data,
      originalName,
      organisationId: study.organisationId,
      createdBy: user.id,
      accept: ['image/png', 'application/pdf'],
      maxBytes: 1024 * 1024,
    });
  const image = await store(pngDeclaring(4, 3), 'key-image.png');
  await db.insert(t.reportImages).values({ reportId: report.id, fileId: image.id, caption: 'axial' });
  await store(PDF, 'requisition.pdf');
}

/** Every report, version and stored file row, and the bytes of each file, in a comparable form. */
async function contentsOf(db: TDb, filesRoot: string) {
  const files = await db.select().from(t.storedFiles).orderBy(asc(t.storedFiles.id));
  const blobs = new LocalDiskBlobStore(filesRoot);
  return {
    reports: await db.select().from(t.reports).orderBy(asc(t.reports.id)),
    versions: await db.select().from(t.reportVersions).orderBy(asc(t.reportVersions.id)),
    images: await db.select().from(t.reportImages).orderBy(asc(t.reportImages.id)),
    files,
    bytes: await Promise.all(files.map((file) => blobs.read(file.storageKey))),
  };
}

/** An embedded data directory, migrated (from the build's snapshot when there is one). */
async function openEmbedded(dataDir: string) {
  const pgliteDir = path.join(dataDir, 'pglite');
  await initialiseFromSnapshot(pgliteDir);
  const database = await openDatabase({ kind: 'pglite', dataDir: pgliteDir });
  await runMigrations(database);
  return database;
}

describe('backup and restore of the embedded database', () => {
  // No AUTH_TOKEN_SECRET: the server generated one into DATA_DIR, which backups leave out.
  const tokenSecret = null;
  // Four PGlite opens: about 8 s here, several times that on a loaded 2-core machine.
  it(
    'restores every report, version and file into a new DATA_DIR; refuses an open, a non-empty or a newer target and a tampered backup',
    { timeout: 60_000 },
    async () => {
      const source = path.join(temp, 'embedded-source');
      const database = await openEmbedded(source);
      await resolveTokenSecret(null, source);
      let expected;
      try {
        await buildBackupWorld(database.db, path.join(source, 'files'));
        expected = await contentsOf(database.db, path.join(source, 'files'));
        // A server (here: this open database) on the DATA_DIR: refused, nothing written.
        await expect(
          createBackup({
            database: { kind: 'pglite', dataDir: path.join(source, 'pglite') },
            tokenSecret,
            dataDir: source,
            outputDir: path.join(temp, 'embedded-backups'),
          }),
        ).rejects.toThrow(/is open: stop the RIS server/);
      } finally {
        await database.close();
      }
      expect(existsSync(path.join(temp, 'embedded-backups'))).toBe(false);

      const { dir, manifest } = await createBackup({
        database: { kind: 'pglite', dataDir: path.join(source, 'pglite') },
        tokenSecret,
        dataDir: source,
        outputDir: path.join(temp, 'embedded-backups'),
      });
      expect(manifest).toMatchObject({
        databaseKind: 'pglite',
        counts: { reports: 1, reportVersions: 3, storedFiles: 2 },
        problems: [],
      });
      expect(manifest.files).toHaveLength(2);

      const target = path.join(temp, 'embedded-target');
      const targetDatabase = { kind: 'pglite', dataDir: path.join(target, 'pglite') } as const;
      const summary = await restoreBackup({
        backupDir: dir,
        database: targetDatabase,
        tokenSecret,
        dataDir: target,
      });
      expect(summary.counts).toEqual(manifest.counts);
      expect(summary.warnings).toEqual([expect.stringMatching(/^this DATA_DIR has no token secret/)]);
      expect(existsSync(path.join(dir, TOKEN_SECRET_FILE))).toBe(false);
      const restored = await openDatabase(targetDatabase);
      try {
        expect(await contentsOf(restored.db, path.join(target, 'files'))).toEqual(expected);
      } finally {
        await restored.close();
      }
      expect(existsSync(path.join(target, 'pglite', 'postmaster.pid'))).toBe(false);

      // Restoring again into what is now a non-empty DATA_DIR: refused.
      await expect(
        restoreBackup({ backupDir: dir, database: targetDatabase, tokenSecret, dataDir: target }),
      ).rejects.toThrow(/is not empty; restore into a new DATA_DIR or pass --force/);
      // With --force, what was there is kept aside and the backup replaces it.
      const forced = await restoreBackup({
        backupDir: dir,
        database: targetDatabase,
        tokenSecret,
        dataDir: target,
        force: true,
      });
      expect(forced.replaced.map((p) => path.basename(p).replace(/-\d.*$/, ''))).toEqual([
        'pglite.replaced',
        'files.replaced',
      ]);

      // A backup from a newer migration level than this code: refused before anything is touched.
      await writeManifest(dir, { ...manifest, migrations: { ...manifest.migrations, applied: 10_000 } });
      const fresh = path.join(temp, 'embedded-fresh');
      await expect(
        restoreBackup({
          backupDir: dir,
          database: { kind: 'pglite', dataDir: null },
          tokenSecret,
          dataDir: fresh,
        }),
      ).rejects.toThrow(/made by a newer version of the RIS/);
      await writeManifest(dir, manifest);
      // A changed byte in a stored file: refused by its checksum.
      const file = manifest.files[0];
      if (!file) throw new Error('no file in the manifest');
      const bytes = await readFile(path.join(dir, file.path));
      bytes[0] = (bytes[0] ?? 0) ^ 0xff;
      await writeFile(path.join(dir, file.path), bytes);
      await expect(
        restoreBackup({
          backupDir: dir,
          database: { kind: 'pglite', dataDir: null },
          tokenSecret,
          dataDir: fresh,
        }),
      ).rejects.toThrow(`${file.path} does not match its checksum in ${MANIFEST_FILE}`);
      expect(existsSync(fresh)).toBe(false);
    },
  );
});

// PostgreSQL only (CI's PostgreSQL pass): pg_dump/pg_restore against the test server.
if (process.env.TEST_DATABASE_URL) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const urlOf = (name: string) => {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  const suffix = `${process.pid}_${Date.now().toString(36)}`;
  const sourceName = `ris_backup_src_${suffix}`;
  const targetName = `ris_backup_dst_${suffix}`;

  describe('backup and restore on PostgreSQL', () => {
    const tokenSecret = 'the-same-token-secret-on-every-replica-0123456789';
    afterAll(async () => {
      await admin(`DROP DATABASE IF EXISTS "${sourceName}" WITH (FORCE)`);
      await admin(`DROP DATABASE IF EXISTS "${targetName}" WITH (FORCE)`);
    });

    it(
      'restores every report, version and file into an empty database; refuses a non-empty one and a tampered dump',
      { timeout: 30_000 },
      async () => {
        await admin(`CREATE DATABASE "${sourceName}"`);
        await admin(`CREATE DATABASE "${targetName}" TEMPLATE template0`);
        const source = path.join(temp, 'pg-source');
        const database = await openDatabase({ kind: 'postgres', url: urlOf(sourceName), poolSize: 2 });
        let expected;
        try {
          await runMigrations(database);
          await buildBackupWorld(database.db, path.join(source, 'files'));
          expected = await contentsOf(database.db, path.join(source, 'files'));
        } finally {
          await database.close();
        }
        const sourceDatabase = { kind: 'postgres', url: urlOf(sourceName), poolSize: 2 } as const;
        const { dir, manifest } = await createBackup({
          database: sourceDatabase,
          tokenSecret,
          dataDir: source,
          outputDir: path.join(temp, 'pg-backups'),
        });
        expect(manifest).toMatchObject({
          databaseKind: 'postgres',
          counts: { reports: 1, reportVersions: 3, storedFiles: 2 },
          database: { path: 'database.pgdump' },
        });

        const target = path.join(temp, 'pg-target');
        const targetDatabase = { kind: 'postgres', url: urlOf(targetName), poolSize: 2 } as const;
        const summary = await restoreBackup({
          backupDir: dir,
          database: targetDatabase,
          tokenSecret,
          dataDir: target,
        });
        expect(summary).toMatchObject({ counts: manifest.counts, warnings: [] });
        const restored = await openDatabase(targetDatabase);
        try {
          expect(await contentsOf(restored.db, path.join(target, 'files'))).toEqual(expected);
        } finally {
          await restored.close();
        }

        // The source still holds data: refused, even with an empty DATA_DIR.
        await expect(
          restoreBackup({
            backupDir: dir,
            database: sourceDatabase,
            tokenSecret,
            dataDir: path.join(temp, 'pg-other'),
          }),
        ).rejects.toThrow(/target database is not empty/);
        // A changed dump: refused by its checksum before the target is looked at.
        await writeFile(path.join(dir, 'database.pgdump'), 'not a dump', { flag: 'a' });
        await expect(
          restoreBackup({
            backupDir: dir,
            database: targetDatabase,
            tokenSecret,
            dataDir: path.join(temp, 'pg-other'),
          }),
        ).rejects.toThrow(/database.pgdump does not match its checksum/);
        expect(await readManifest(dir)).toEqual(manifest);
      },
    );
  });
}
