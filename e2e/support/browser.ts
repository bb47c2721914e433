import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './chromium.ts';

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found (run through e2e/run.ts, which checks first)');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
