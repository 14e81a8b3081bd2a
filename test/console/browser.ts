/**
 * Headless Debian Chromium for the console's browser tests, driven by playwright-core (never a downloaded browser).
 * A missing Chromium fails the test with what to install — it never skips.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.DOCKET_CHROMIUM ?? '/usr/bin/chromium';

export interface TestBrowser {
  readonly browser: Browser;
  close(): Promise<void>;
}

/** The flags every browser test starts Chromium with: headless on a closed network (no background calls home). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails (never skips) when Debian's Chromium is missing, saying what to install. */
export function requireChromium(): string {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `the browser tests need Chromium at ${CHROMIUM}: install it with "apt-get install -y chromium" (or set DOCKET_CHROMIUM)`,
    );
  return CHROMIUM;
}

export async function launchChromium(): Promise<TestBrowser> {
  // Playwright gives each launch a fresh, empty profile directory of its own (it refuses --user-data-dir here).
  const browser = await chromium.launch({ executablePath: requireChromium(), headless: true, args: CHROMIUM_ARGS });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** The built app: the tests build it once (vite) when console/dist/index.html is missing. */
export async function ensureBuilt(root: string): Promise<void> {
  if (existsSync(join(root, 'console', 'dist', 'index.html'))) return;
  const { build } = await import('vite');
  await build({ configFile: join(root, 'console', 'web', 'vite.config.ts') });
}
