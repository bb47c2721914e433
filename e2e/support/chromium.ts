import { existsSync } from 'node:fs';

/** Chromium from CHROME_PATH, Debian's package, or Chrome's usual places; null when there is none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = [
    env.CHROME_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ];
  return (
    candidates.find((candidate): candidate is string => Boolean(candidate) && existsSync(candidate ?? '')) ??
    null
  );
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
