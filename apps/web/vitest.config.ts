import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['ris-source'] },
  ssr: { resolve: { conditions: ['ris-source'] } },
  // Component tests (*.test.tsx) choose a DOM with a `// @vitest-environment happy-dom` docblock.
  test: { name: 'web', include: ['src/**/*.test.{ts,tsx}'], environment: 'node' },
});
