import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where Node keeps the compiled code of the server's modules between runs: beside the built files
 * (apps/server/dist/.compile-cache), filled once by `npm run build` so that even the very first
 * start of a fresh install finds it. NODE_COMPILE_CACHE chooses another directory.
 */
export const COMPILE_CACHE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  '.compile-cache',
);

/** Turns the cache on; a directory that cannot be written (a read-only image) only costs speed. */
export function enableCompileCache(): void {
  module.enableCompileCache(process.env.NODE_COMPILE_CACHE ?? COMPILE_CACHE_DIR);
}
