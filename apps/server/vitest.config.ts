import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests run the shared packages from their TypeScript source, never from a stale build.
  resolve: {
    alias: {
      '@ris/domain': fileURLToPath(new URL('../../packages/domain/src/index.ts', import.meta.url)),
      '@ris/editor': fileURLToPath(new URL('../../packages/editor/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'server',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Test files share each worker's module graph: a fresh one per file cost 485 s of module imports
    // in a 592 s run (254 s without). Every file builds its own servers and database, no file mocks a
    // module, and a worker runs its files one after the other: module-level state (the render pool,
    // prepared statement names, time-zone days) is the process's, as in a server serving them all.
    isolate: false,
    globalSetup: ['src/test/global-setup.ts'],
    // Each test file gets its own database; PGlite start-up and template cloning need a little time,
    // and the worklist search files seed 10,000-25,000 studies in beforeAll: on a 2-core machine under
    // CI's load one such seed (worklist-sorted-search, 15,600 studies and ANALYZE) passed 60 s.
    hookTimeout: 180_000,
    testTimeout: 20_000,
  },
});
