import { defineConfig } from 'vitest/config';

// End-to-end tests: the built server as a child process, driven by Debian's Chromium through
// playwright-core. Each file starts its own server (its own database, free port, data directory and
// Orthanc) and browser, so two files run at a time: one at a time, a 2-core machine sat half idle
// while a file waited on its server, its browser or PostgreSQL.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: true,
    maxWorkers: 2,
    hookTimeout: 120_000,
    testTimeout: 60_000,
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON.replace(/\.json$/, '.e2e.json') }]]
      : ['default'],
  },
});
