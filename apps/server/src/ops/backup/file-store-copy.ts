import { constants } from 'node:fs';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { assertBlobKey } from '../../files/blob-store.ts';
import type { TStoredBlob } from './database-facts.ts';
import { FILES_FOLDER, sha256OfFile } from './manifest.ts';

/** The local disk driver's name in stored_files.storage_driver (files/local-disk-store.ts). */
export const LOCAL_DRIVER = 'local';

type TPart = { path: string; sizeBytes: number; sha256: string };
type TProblem = { storageKey: string; problem: string };

function blobPath(root: string, key: string): string {
  assertBlobKey(key);
  return path.join(root, ...key.split('/'));
}

/** What is wrong with the blob at `file` for this row, or null when its size and sha256 match. */
export async function blobProblem(file: string, blob: TStoredBlob): Promise<string | null> {
  const size = await stat(file).then(
    (s) => (s.isFile() ? s.size : null),
    () => null,
  );
  if (size === null) return 'missing';
  if (size !== blob.sizeBytes) return `size ${size}, expected ${blob.sizeBytes}`;
  if ((await sha256OfFile(file)) !== blob.sha256) return 'sha256 differs from stored_files';
  return null;
}

/**
 * Copies the local blobs the database names from the file store into `<backup>/files/<key>`, each
 * checked against its stored_files row after the copy (so damage in the live store is reported at
 * backup time, not found at restore time). Blobs no row names (orphans of failed uploads) are left.
 */
export async function copyBlobsToBackup(
  filesRoot: string,
  backupDir: string,
  blobs: readonly TStoredBlob[],
): Promise<{ files: TPart[]; problems: TProblem[] }> {
  const files: TPart[] = [];
  const problems: TProblem[] = [];
  for (const blob of blobs) {
    if (blob.storageDriver !== LOCAL_DRIVER) continue;
    const relative = `${FILES_FOLDER}/${blob.storageKey}`;
    const target = blobPath(path.join(backupDir, FILES_FOLDER), blob.storageKey);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await copyFile(blobPath(filesRoot, blob.storageKey), target, constants.COPYFILE_FICLONE);
    } catch {
      problems.push({ storageKey: blob.storageKey, problem: 'missing' });
      continue;
    }
    const problem = await blobProblem(target, blob);
    if (problem) problems.push({ storageKey: blob.storageKey, problem });
    else files.push({ path: relative, sizeBytes: blob.sizeBytes, sha256: blob.sha256 });
  }
  return { files, problems };
}

/** Copies the backup's blobs into a (staging) file store root. */
export async function copyBlobsFromBackup(
  backupDir: string,
  filesRoot: string,
  files: readonly TPart[],
): Promise<void> {
  for (const file of files) {
    const key = file.path.slice(FILES_FOLDER.length + 1);
    const target = blobPath(filesRoot, key);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(blobPath(path.join(backupDir, FILES_FOLDER), key), target, constants.COPYFILE_FICLONE);
  }
}

/**
 * Every local stored_files row has its blob under `filesRoot` with the right size and sha256, except
 * those the backup already recorded as missing. Returns the problems found (empty: intact).
 */
export async function findRestoredBlobProblems(
  filesRoot: string,
  blobs: readonly TStoredBlob[],
  knownProblems: readonly TProblem[],
): Promise<TProblem[]> {
  const known = new Set(knownProblems.map((p) => p.storageKey));
  const problems: TProblem[] = [];
  for (const blob of blobs) {
    if (blob.storageDriver !== LOCAL_DRIVER || known.has(blob.storageKey)) continue;
    const problem = await blobProblem(blobPath(filesRoot, blob.storageKey), blob);
    if (problem) problems.push({ storageKey: blob.storageKey, problem });
  }
  return problems;
}
