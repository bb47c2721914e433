import { defineConfig } from 'vitest/config';

// The workspace's unit and route tests. The e2e suite has its own config (e2e/vitest.config.ts)
// because it needs the built app and runs its files one at a time.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    projects: ['packages/domain', 'apps/server', 'apps/web'],
  },
});
