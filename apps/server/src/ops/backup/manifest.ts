import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';

/** Bumped when the layout of a backup changes; restore refuses versions it does not know. */
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
/** The database part's file name, by kind. */
export const DATABASE_PART = { postgres: 'database.pgdump', pglite: 'database.pglite.tar.gz' } as const;
/** Blobs of the local file store keep their storage keys under this folder of the backup. */
export const FILES_FOLDER = 'files';

const ZSha256 = z.string().regex(/^[0-9a-f]{64}$/);
const ZPart = z.object({ path: z.string().min(1), sizeBytes: z.number().int().min(0), sha256: ZSha256 });

/**
 * Applied migrations: how many, and the newest one's `when` (drizzle applies every migration whose
 * `when` is later than the newest applied one, so this is what decides "older" and "newer").
 */
const ZMigrationLevel = z.object({ applied: z.number().int().min(0), latest: z.number().int().min(0) });
export type TMigrationLevel = z.infer<typeof ZMigrationLevel>;

const ZCounts = z.object({
  reports: z.number().int().min(0),
  reportVersions: z.number().int().min(0),
  storedFiles: z.number().int().min(0),
});
export type TCounts = z.infer<typeof ZCounts>;

export const ZManifest = z.object({
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  createdAt: z.iso.datetime(),
  databaseKind: z.enum(['postgres', 'pglite']),
  migrations: ZMigrationLevel,
  counts: ZCounts,
  database: ZPart,
  /** One entry per blob copied from the local file store; path is `files/<storage key>`. */
  files: z.array(ZPart),
  /** Blobs a stored_files row names that were missing or damaged in the live store at backup time. */
  problems: z.array(z.object({ storageKey: z.string(), problem: z.string() })),
  /** Fingerprint of the identity token secret the database's sealed secrets need (never the secret). */
  tokenSecretCheck: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .nullable(),
  /** Rows whose bytes live in object storage: the bucket's versioning is their backup (README). */
  objectStorage: z.object({ bucket: z.string().nullable(), storedFiles: z.number().int().min(0) }),
});
export type TManifest = z.infer<typeof ZManifest>;

/** A backup that cannot be used as it is: restore stops before touching anything. */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusedError';
  }
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function writeManifest(dir: string, manifest: TManifest): Promise<void> {
  const target = path.join(dir, MANIFEST_FILE);
  await writeFile(`${target}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  await rename(`${target}.tmp`, target);
}

export async function readManifest(dir: string): Promise<TManifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupRefusedError(`${dir} is not a backup: it has no readable ${MANIFEST_FILE}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupRefusedError(`${MANIFEST_FILE} is not valid JSON`);
  }
  const parsed = ZManifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupRefusedError(
      `${MANIFEST_FILE} is not a manifest this version can restore (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`,
    );
  }
  return parsed.data;
}

/** The migration level of this code: every committed migration applied. */
export async function codeMigrationLevel(): Promise<TMigrationLevel> {
  const journal = z
    .object({ entries: z.array(z.object({ when: z.number() })) })
    .parse(JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')));
  return { applied: journal.entries.length, latest: Math.max(0, ...journal.entries.map((e) => e.when)) };
}

/**
 * Refuses a backup made by newer code (its schema has migrations this code does not know). An
 * older one is fine: the server applies the missing migrations when it starts on the restored data.
 */
export async function assertRestorableLevel(backup: TMigrationLevel): Promise<void> {
  const code = await codeMigrationLevel();
  if (backup.latest > code.latest || backup.applied > code.applied) {
    throw new BackupRefusedError(
      `this backup was made by a newer version of the RIS (${backup.applied} migrations applied, this code has ${code.applied}); restore it with that version or newer`,
    );
  }
}

/** Checks every part's size and sha256 against the manifest; throws naming the first that differs. */
export async function verifyParts(dir: string, manifest: TManifest): Promise<void> {
  for (const part of [manifest.database, ...manifest.files]) {
    const file = resolvePart(dir, part.path);
    const size = await stat(file).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) throw new BackupRefusedError(`the backup is incomplete: ${part.path} is missing`);
    if (size !== part.sizeBytes || (await sha256OfFile(file)) !== part.sha256) {
      throw new BackupRefusedError(
        `the backup is damaged or was changed: ${part.path} does not match its checksum in ${MANIFEST_FILE}`,
      );
    }
  }
}

/** A part's path inside the backup directory; a manifest naming anything outside it is refused. */
export function resolvePart(dir: string, partPath: string): string {
  const resolved = path.resolve(dir, partPath);
  if (!resolved.startsWith(`${path.resolve(dir)}${path.sep}`)) {
    throw new BackupRefusedError(`${MANIFEST_FILE} names a part outside the backup: ${partPath}`);
  }
  return resolved;
}
