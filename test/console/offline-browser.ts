/**
 * Test and bench support for the offline page: builds console/dist/offline.html, and opens it from file:// in
 * Debian's Chromium (never a downloaded browser) with every request other than the page itself refused, so a pass
 * proves the page works with no network.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import { run as runVerify } from '../../cli/commands/verify.js';
import { memoryIo } from '../../cli/io.js';
import { CHROMIUM_ARGS, requireChromium } from './browser.js';

// The repository root, from test/console/ or from dist/test/console/ (the bench's compiled copy).
const ROOT = [join(import.meta.dirname, '..', '..'), join(import.meta.dirname, '..', '..', '..')].find((r) =>
  existsSync(join(r, 'console', 'offline', 'vite.config.ts')),
) as string;
export const OFFLINE_HTML = join(ROOT, 'console', 'dist', 'offline.html');

export async function buildOfflinePage(): Promise<string> {
  await build({ configFile: join(ROOT, 'console', 'offline', 'vite.config.ts'), logLevel: 'error' });
  return OFFLINE_HTML;
}

export interface OfflineBrowser {
  readonly page: Page;
  /** Every URL the page tried to load other than itself (each was refused). */
  readonly refused: string[];
  /** Content-Security-Policy violations the page reported. */
  cspViolations(): Promise<string[]>;
  open(query?: string): Promise<void>;
  close(): Promise<void>;
}

export async function openOfflinePage(html = OFFLINE_HTML): Promise<OfflineBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'docket-offline-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: requireChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const url = pathToFileURL(html).href;
  const refused: string[] = [];
  await context.route('**/*', async (route) => {
    const u = route.request().url();
    if (u.split('?')[0] === url) return route.continue();
    refused.push(u);
    return route.abort('blockedbyclient');
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('request', (r) => {
    if (r.url().split('?')[0] !== url && !refused.includes(r.url())) refused.push(r.url());
  });
  // Plain script text: it runs in the page, where the test's TypeScript has no DOM types.
  await page.addInitScript(
    "window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));",
  );
  return {
    page,
    refused,
    cspViolations: () => page.evaluate<string[]>('window.__csp'),
    open: async (query = '') => {
      await page.goto(url + query);
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface PageRun {
  readonly verifyOk: string;
  readonly output: string;
  readonly engine: string;
  readonly seconds: number;
  /** The WebCrypto run needed its second pass (some signature was invalid). */
  readonly secondPass: boolean;
}

/** Gives the page its files (by path, through the file inputs), clicks Verify and reads the result. */
export async function verifyInPage(
  page: Page,
  files: {
    ledger: string;
    policy: string;
    checkpoints?: string;
    markers?: string;
    witnesses?: string;
    cosigned?: string[];
    now?: string;
  },
  allSignatures: boolean,
  timeout = 60_000,
): Promise<PageRun> {
  await page.setInputFiles('#ledger', files.ledger);
  await page.setInputFiles('#policy', files.policy);
  if (files.checkpoints !== undefined) await page.setInputFiles('#checkpoints', files.checkpoints);
  if (files.markers !== undefined) await page.setInputFiles('#markers', files.markers);
  if (files.witnesses !== undefined) await page.setInputFiles('#witnesses', files.witnesses);
  if (files.cosigned !== undefined) await page.setInputFiles('#cosigned', files.cosigned);
  if (files.now !== undefined) await page.fill('#now', files.now);
  await page.setChecked('#all-signatures', allSignatures);
  await page.waitForSelector('#verify:enabled');
  await page.click('#verify');
  await page.waitForSelector('#verdict[data-verify-ok="true"], #verdict[data-verify-ok="false"]', { timeout });
  return {
    verifyOk: (await page.getAttribute('#verdict', 'data-verify-ok')) ?? '',
    output: (await page.textContent('#output')) ?? '',
    engine: (await page.getAttribute('#engine', 'data-engine')) ?? '',
    seconds: Number(await page.getAttribute('#engine', 'data-seconds')),
    secondPass: (await page.getAttribute('#engine', 'data-second-pass')) === 'true',
  };
}

/** The ledger tamper corpus (conformance/ledger/scenarios), one directory per scenario, sorted. */
export const TAMPER_SCENARIOS = join(ROOT, 'conformance', 'ledger', 'scenarios');
export const tamperScenarioNames: readonly string[] = readdirSync(TAMPER_SCENARIOS)
  .filter((n) => statSync(join(TAMPER_SCENARIOS, n)).isDirectory())
  .sort();

export function filesOfScenario(name: string): {
  ledger: string;
  policy: string;
  checkpoints?: string;
  markers?: string;
} {
  const p = (f: string) => join(TAMPER_SCENARIOS, name, f);
  return {
    ledger: p('ledger.jsonl'),
    policy: p('policy.json'),
    ...(existsSync(p('checkpoints.json')) ? { checkpoints: p('checkpoints.json') } : {}),
    ...(existsSync(p('markers.json')) ? { markers: p('markers.json') } : {}),
  };
}

/** What `docket verify --export …` prints for a tamper scenario: its one stdout line, and its exit code. */
export async function cliVerdictOf(name: string, allSignatures: boolean): Promise<{ line: string; exit: number }> {
  const f = filesOfScenario(name);
  const argv = ['--export', f.ledger, '--policy', f.policy];
  if (f.checkpoints !== undefined) argv.push('--checkpoints', f.checkpoints);
  if (f.markers !== undefined) argv.push('--markers', f.markers);
  if (allSignatures) argv.push('--all-signatures');
  const io = memoryIo();
  const exit = await runVerify(argv, io);
  return { line: io.out().trimEnd(), exit };
}
