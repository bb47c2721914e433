// Build step: writes dist/pglite-snapshot.tar.gz (see pglite-snapshot.ts).
import { PGLITE_SNAPSHOT_PATH, writePgliteSnapshot } from './pglite-snapshot.ts';

await writePgliteSnapshot();
process.stdout.write(`PGlite snapshot written to ${PGLITE_SNAPSHOT_PATH}\n`);
