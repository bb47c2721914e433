import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['ris-source'] },
  ssr: { resolve: { conditions: ['ris-source'] } },
  // Component tests (*.test.tsx) choose a DOM with a `// @vitest-environment happy-dom` docblock.
  // A component test waits (test/dom.tsx waitFor, up to 10 s a step) for several steps; on CI's two
  // busy cores one test can take more than vitest's default 5 s without anything being wrong.
  // Console output goes straight to the worker's stdout, not through vitest's RPC: a line logged as a
  // worker closes (a test's intended "offline" errors, a late rejection) otherwise failed the whole run
  // with "Closing rpc while onUserConsoleLog was pending", every test green (CI at 9dcf3a6).
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    disableConsoleIntercept: true,
  },
});
