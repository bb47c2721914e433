import { defineConfig } from 'vitest/config';

// End-to-end tests: the built server as a child process, driven by Debian's Chromium through
// playwright-core. One file at a time: each starts its own server and browser.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    hookTimeout: 120_000,
    testTimeout: 60_000,
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON.replace(/\.json$/, '.e2e.json') }]]
      : ['default'],
  },
});
