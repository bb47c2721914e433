// Runs the e2e suite when a Chromium exists. Without one it prints a single loud line and exits 0,
// unless RIS_REQUIRE_E2E=1 (CI), where a missing browser is a failure.
import { spawnSync } from 'node:child_process';
import { findChromium } from './support/chromium.ts';

const chromium = findChromium();
if (!chromium) {
  const required = process.env.RIS_REQUIRE_E2E === '1';
  console.error(
    `${required ? 'FAILED' : 'skipped'}: no Chromium — e2e tests did not run (set CHROME_PATH or install Debian's chromium)`,
  );
  process.exit(required ? 1 : 0);
}
const result = spawnSync('vitest', ['run', '--config', 'vitest.config.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROME_PATH: chromium },
});
process.exit(result.status ?? 1);
