import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The workspace's unit and route tests. The e2e suite has its own config (e2e/vitest.config.ts)
// because it needs the built app and runs its files one at a time. With VITEST_JSON set (CI), a JSON
// report is written there as well, so .ci/run can print one plain "N passed, N failed" line.
export default defineConfig({
  test: {
    // At least two test files at a time: vitest's default (cores - 1) runs one file at a time on a
    // 2-core machine, where much of each route test's time is PostgreSQL's (another process) or
    // waiting on sockets, so the second core sat idle and CI took twice as long.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: ['packages/domain', 'packages/editor', 'apps/server', 'apps/web'],
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
});
