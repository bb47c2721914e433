// Build step: writes dist/pglite-snapshot/ (see pglite-snapshot.ts) and fills Node's compile
// cache (startup/compile-cache.ts) with every module a start loads, so that the first `npm start`
// of a fresh install does not compile them. Both are made before anything else is imported.
import module from 'node:module';
import { enableCompileCache } from '../startup/compile-cache.ts';
import { installFastResolve } from '../startup/fast-resolve.ts';

enableCompileCache();
installFastResolve();
// What start.ts loads (statically and on the way to ready), so their compiled code is cached.
await Promise.all([
  import('../app.ts'),
  import('../config.ts'),
  import('../files/local-disk-store.ts'),
  import('../seed/demo.ts'),
  import('drizzle-orm/pglite/migrator'),
]);
const { PGLITE_SNAPSHOT_DIR, writePgliteSnapshotDirectory } = await import('./pglite-snapshot.ts');
await writePgliteSnapshotDirectory();
module.flushCompileCache();
process.stdout.write(`PGlite snapshot written to ${PGLITE_SNAPSHOT_DIR}\n`);
