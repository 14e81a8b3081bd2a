/**
 * The console's /receipt page in Chromium (docs/console.md "/receipt"; ADR 0212): for every scenario of the receipt
 * corpus, the verdict the page reaches in the browser is exactly what `docket verify-receipt` prints for the same
 * files, its data-receipt-ok attribute and listed findings agree, and the entry is linked by its request id.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { packageRoot, startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openFileSource } from '../../cli/console/source.js';
import { run as verifyReceiptCli } from '../../cli/commands/verify-receipt.js';
import { memoryIo } from '../../cli/io.js';
import { ensureBuilt, launchChromium, type TestBrowser } from './browser.js';
import { writeLedgerFiles, type LedgerFiles } from './ledger-files.js';

const CORPUS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'receipts');
const SCENARIOS = readdirSync(CORPUS)
  .filter((n) => statSync(join(CORPUS, n)).isDirectory())
  .sort();
/** Page field id suffix → the corpus file and the CLI flag that carry it. */
const OPTIONAL = [
  { slot: 'witnesses', file: 'witness-policy.json', flag: '--witnesses' },
  { slot: 'facts', file: 'facts.json', flag: '--facts' },
] as const;

let files: LedgerFiles;
let c: RunningConsole;
let b: TestBrowser;

beforeAll(async () => {
  await ensureBuilt(packageRoot());
  files = writeLedgerFiles(['log-r'], 1);
  c = await startConsoleServer({ source: await openFileSource(files), host: '127.0.0.1', port: 0 });
  b = await launchChromium();
});

afterAll(async () => {
  await b?.close();
  await c?.close();
  if (files) rmSync(files.dir, { recursive: true, force: true });
});

const base = () => c.url.replace(/\/$/, '');

/** Picks a file in one of the page's file fields and waits until the page has read it. */
async function pick(page: Page, slot: string, path: string): Promise<void> {
  await page.setInputFiles(`#receipt-${slot}`, path);
  await page.waitForSelector(`[data-chosen="${slot}"]:text-is(${JSON.stringify(path.split('/').pop())})`);
}

async function pageVerdict(page: Page) {
  await page.click('text=Verify the receipt');
  const verdict = await page.waitForSelector('[data-receipt-ok]');
  return {
    ok: await verdict.getAttribute('data-receipt-ok'),
    noVerdict: await verdict.getAttribute('data-no-verdict'),
    output: (await (await page.$('pre.receipt-output'))?.textContent()) ?? null,
    listed: await page.$$eval('.receipt-findings .finding', (els) => els.map((e) => e.getAttribute('data-code'))),
    entryHref: (await (await page.$('a.receipt-entry'))?.getAttribute('href')) ?? null,
  };
}

async function cli(argv: string[]) {
  const io = memoryIo();
  const exit = await verifyReceiptCli(argv, io);
  return { exit, out: io.out().trim() };
}

describe('the /receipt page', () => {
  it('is served at /receipt and reached from the navigation', async () => {
    const page = await b.browser.newPage();
    try {
      await page.goto(`${base()}/`);
      await page.click('nav >> text=Receipt');
      await page.waitForSelector('h1:text("Receipt")');
      expect(new URL(page.url()).pathname).toBe('/receipt');
      const res = await page.goto(`${base()}/receipt`);
      expect(res?.status()).toBe(200);
      await page.waitForSelector('#receipt-receipt');
    } finally {
      await page.close();
    }
  });

  for (const name of SCENARIOS)
    it(`${name}: the page's verdict equals docket verify-receipt's for the same files`, async () => {
      const dir = join(CORPUS, name);
      const argv = [join(dir, 'receipt.json'), '--policy', join(dir, 'policy.json')];
      const page = await b.browser.newPage();
      try {
        await page.goto(`${base()}/receipt`);
        await pick(page, 'receipt', join(dir, 'receipt.json'));
        await pick(page, 'policy', join(dir, 'policy.json'));
        for (const o of OPTIONAL)
          if (existsSync(join(dir, o.file))) {
            await pick(page, o.slot, join(dir, o.file));
            argv.push(o.flag, join(dir, o.file));
          }
        const shown = await pageVerdict(page);
        const expected = await cli(argv);
        expect(shown.output).toBe(expected.out);
        const verdict = JSON.parse(expected.out) as { ok: boolean; findings: { code: string }[] };
        expect(shown.ok).toBe(String(verdict.ok));
        expect(expected.exit).toBe(verdict.ok ? 0 : 1);
        expect(shown.listed).toEqual(verdict.findings.map((f) => f.code));
        // Every corpus entry reads strictly (only signatures, proofs and notes are tampered), so each names its request.
        expect(shown.entryHref).toMatch(/^\/entry\/[^/]+$/);
      } finally {
        await page.close();
      }
    });

  it('compares pack, evidence and request files as docket verify-receipt does', async () => {
    const dir = join(CORPUS, 'honest-witnessed-with-facts');
    // Files that are not the recorded inputs: each must give its digest mismatch, exactly as the CLI reports it.
    const wrong = join(dir, 'witness-policy.json');
    const page = await b.browser.newPage();
    try {
      await page.goto(`${base()}/receipt`);
      await pick(page, 'receipt', join(dir, 'receipt.json'));
      await pick(page, 'policy', join(dir, 'policy.json'));
      for (const s of ['pack', 'evidence', 'request']) await pick(page, s, wrong);
      await pick(page, 'facts', join(dir, 'facts.json'));
      const shown = await pageVerdict(page);
      const expected = await cli([
        join(dir, 'receipt.json'),
        '--policy',
        join(dir, 'policy.json'),
        ...['--pack', wrong, '--evidence', wrong, '--request', wrong, '--facts', join(dir, 'facts.json')],
      ]);
      expect(expected.exit).toBe(1);
      expect(shown.output).toBe(expected.out);
      expect(shown.listed).toEqual(['pack-digest-mismatch', 'evidence-digest-mismatch', 'request-digest-mismatch']);
    } finally {
      await page.close();
    }
  });

  it('reaches every file field with the keyboard, in order, from the heading', async () => {
    const page = await b.browser.newPage();
    try {
      await page.goto(`${base()}/receipt`);
      await page.focus('h1');
      const order: string[] = [];
      for (let i = 0; i < 7; i++) {
        await page.keyboard.press('Tab');
        order.push((await page.evaluate('document.activeElement?.id ?? ""')) as string);
      }
      expect(order).toEqual(
        ['receipt', 'policy', 'witnesses', 'pack', 'facts', 'evidence', 'request'].map((s) => `receipt-${s}`),
      );
    } finally {
      await page.close();
    }
  });

  it('the entry link opens that entry in the console', async () => {
    const dir = join(CORPUS, 'honest');
    const page = await b.browser.newPage();
    try {
      await page.goto(`${base()}/receipt`);
      await pick(page, 'receipt', join(dir, 'receipt.json'));
      await pick(page, 'policy', join(dir, 'policy.json'));
      const { entryHref } = await pageVerdict(page);
      await page.click('a.receipt-entry');
      await page.waitForURL((u) => u.pathname === entryHref);
      await page.waitForSelector('entry-page');
    } finally {
      await page.close();
    }
  });

  it('a file that is not a receipt gives no verdict with the code docket verify-receipt reports', async () => {
    const dir = join(CORPUS, 'honest');
    const page = await b.browser.newPage();
    try {
      await page.goto(`${base()}/receipt`);
      await pick(page, 'receipt', join(dir, 'policy.json'));
      await pick(page, 'policy', join(dir, 'policy.json'));
      const shown = await pageVerdict(page);
      const expected = await cli([join(dir, 'policy.json'), '--policy', join(dir, 'policy.json')]);
      expect(expected.exit).toBe(2);
      expect(shown.ok).toBe('false');
      expect(shown.noVerdict).toBe('receipt-unreadable');
      expect(shown.output).toBeNull();
      expect(JSON.parse(expected.out)).toMatchObject({ noVerdict: { code: 'receipt-unreadable' } });
    } finally {
      await page.close();
    }
  });

  it('dropped files are sorted into receipt, trust policy and witness policy by their format', async () => {
    const dir = join(CORPUS, 'unwitnessed-note');
    const page = await b.browser.newPage();
    try {
      await page.goto(`${base()}/receipt`);
      const dropped = ['receipt.json', 'policy.json', 'witness-policy.json'].map((f) => ({
        name: f,
        text: readFileSync(join(dir, f), 'utf8'),
      }));
      // Browser-side code as text: the tests compile without the DOM library.
      const transfer = await page.evaluateHandle(`(() => {
        const dt = new DataTransfer();
        for (const f of ${JSON.stringify(dropped)}) dt.items.add(new File([f.text], f.name, { type: 'application/json' }));
        return dt;
      })()`);
      await page.dispatchEvent('.drop', 'drop', { dataTransfer: transfer });
      for (const [s, f] of [
        ['receipt', 'receipt.json'],
        ['policy', 'policy.json'],
        ['witnesses', 'witness-policy.json'],
      ])
        await page.waitForSelector(`[data-chosen="${s}"]:text-is("${f}")`);
      const shown = await pageVerdict(page);
      expect(shown.ok).toBe('false');
      expect(shown.listed).toEqual(['unwitnessed-checkpoint']);
    } finally {
      await page.close();
    }
  });
});
