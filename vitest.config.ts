import { defineConfig } from 'vitest/config';

// The workspace's unit and route tests. The e2e suite has its own config (e2e/vitest.config.ts)
// because it needs the built app and runs its files one at a time. With VITEST_JSON set (CI), a JSON
// report is written there as well, so .ci/run can print one plain "N passed, N failed" line.
export default defineConfig({
  test: {
    projects: ['packages/domain', 'packages/editor', 'apps/server', 'apps/web'],
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
});
