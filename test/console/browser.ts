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

export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `the console's browser tests need Chromium at ${CHROMIUM}: install it with "apt-get install -y chromium" (or set DOCKET_CHROMIUM)`,
    );
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Playwright gives each launch a fresh, empty profile directory of its own (it refuses --user-data-dir here).
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
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
