import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'editor', include: ['src/**/*.test.ts'], environment: 'node' },
});
