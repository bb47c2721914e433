import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['ris-source'] },
  ssr: { resolve: { conditions: ['ris-source'] } },
  // Component tests (*.test.tsx) choose a DOM with a `// @vitest-environment happy-dom` docblock.
  // A component test waits (test/dom.tsx waitFor, up to 10 s a step) for several steps; on CI's two
  // busy cores one test can take more than vitest's default 5 s without anything being wrong.
  test: { name: 'web', include: ['src/**/*.test.{ts,tsx}'], environment: 'node', testTimeout: 30_000 },
});
