/**
 * The console by keyboard alone, in Chromium (docs/console.md): the first Tab reaches the skip link, the page links
 * follow in order, Enter on a link opens its page with focus on the new page's heading, and the search form and the
 * entries list are reached and used without a mouse.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot, startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openFileSource } from '../../cli/console/source.js';
import { ensureBuilt, launchChromium, type TestBrowser } from './browser.js';
import { writeLedgerFiles, type LedgerFiles } from './ledger-files.js';

let files: LedgerFiles;
let c: RunningConsole;
let b: TestBrowser;

beforeAll(async () => {
  await ensureBuilt(packageRoot());
  files = writeLedgerFiles(['log-k'], 9);
  c = await startConsoleServer({ source: await openFileSource(files), host: '127.0.0.1', port: 0 });
  b = await launchChromium();
});

afterAll(async () => {
  await b?.close();
  await c?.close();
  if (files) rmSync(files.dir, { recursive: true, force: true });
});

const focused = `(() => { const e = document.activeElement; return e ? (e.tagName + ' ' + (e.textContent ?? '').trim()).slice(0, 60) : ''; })()`;

describe('the console by keyboard', () => {
  it('tabs through the skip link and the page links, and Enter opens a page with focus on its heading', async () => {
    const page = await b.browser.newPage();
    await page.goto(c.url);
    await page.waitForSelector('[data-overview-ready]');
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      order.push((await page.evaluate(focused)) as string);
    }
    expect(order).toEqual([
      'A Skip to content',
      'A Overview',
      'A Entries',
      'A Verify',
      'A Receipt',
      'A Offline verification',
    ]);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('table.entries tbody tr');
    expect(new URL(page.url()).pathname).toBe('/entries');
    await page.waitForFunction(`document.activeElement?.tagName === 'H1'`);
    expect(await page.evaluate(focused)).toBe('H1 Entries');
    await page.close();
  });

  it('searches a request id from the keyboard and opens its entry with Enter', async () => {
    const page = await b.browser.newPage();
    await page.goto(c.url);
    await page.waitForSelector('[data-overview-ready]');
    await page.focus('#search-request');
    await page.keyboard.type('log-k-req-4');
    await page.keyboard.press('Enter');
    await page.waitForSelector('a.request');
    await page.focus('a.request');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dl.facts');
    expect(new URL(page.url()).pathname).toBe('/entry/log-k-req-4');
    await page.close();
  });
});
