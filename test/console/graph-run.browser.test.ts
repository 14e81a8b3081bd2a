/**
 * The console's graph run page in Chromium (docs/console.md "Graph runs", ADR 0341): RFC 0022's worked example is
 * drawn as an SVG DAG whose nodes link to their dispositions, and a run whose ids, pointers and handoff target are
 * markup runs nothing and shows each string as text.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { packageRoot, startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openFileSource } from '../../cli/console/source.js';
import { ensureBuilt, launchChromium, type TestBrowser } from './browser.js';
import { expectInert, probeGraphPage } from './graph-page-probe.js';
import { writeLedgerFiles, type LedgerFiles } from './ledger-files.js';
import { HOSTILE_ID, HOSTILE_TARGET, hostileRun, procurementRun } from '../graph-view/fixtures.js';

let files: LedgerFiles;
let clean: RunningConsole;
let hostile: RunningConsole;
let none: RunningConsole;
let b: TestBrowser;

beforeAll(async () => {
  await ensureBuilt(packageRoot());
  files = writeLedgerFiles(['log-g'], 1);
  clean = await startConsoleServer({
    source: await openFileSource(files),
    host: '127.0.0.1',
    port: 0,
    graphResult: procurementRun(),
  });
  hostile = await startConsoleServer({
    source: await openFileSource(files),
    host: '127.0.0.1',
    port: 0,
    graphResult: hostileRun(),
  });
  none = await startConsoleServer({ source: await openFileSource(files), host: '127.0.0.1', port: 0 });
  b = await launchChromium();
});

afterAll(async () => {
  await b?.close();
  for (const c of [clean, hostile, none]) await c?.close();
  if (files) rmSync(files.dir, { recursive: true, force: true });
});

async function open(page: Page, base: string, ready: string) {
  return probeGraphPage(page, `${base}graph-run`, ready);
}

describe('the graph run page', () => {
  it('draws every leaf, both subgraph instances with their digest, the feeds and the requested handoffs', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1800, height: 1000 } });
    const s = await open(page, clean.url, 'main svg a.graph-node');
    expect(await page.locator('main svg a.graph-node').count()).toBe(procurementRun().nodes.length);
    expect(await page.locator('main svg g.graph-instance').count()).toBe(2);
    expect(s.svgText).toContain('sha256:47e7c8483de7dc1f8d764c50b1d83c3048bf230e4c5d5ddb228ebcb965d85406');
    expect(s.svgText).toContain('⚑ handoff → Sanctions Compliance Officer');
    expect(s.svgText).toContain('/screening/vendor-cleared ← s');
    expect(await page.locator('main svg g.graph-edge.not-injected').count()).toBeGreaterThan(0);
    expect(await page.locator('main svg a.graph-node.kind-outcome').count()).toBe(3);
    expect(await page.locator('main svg a.graph-node.kind-unresolved').count()).toBe(4);
    expect(s.violations).toEqual([]);
    await page
      .locator('main .graph-drawing svg')
      .screenshot({ path: join(process.env.GRAPH_VIEW_OUT ?? '/tmp', 'graph-run-page.png') });
    await page.close();
  });

  it('takes a click on a node to that node’s disposition', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1800, height: 1000 } });
    await open(page, clean.url, 'main svg a.graph-node');
    const i = procurementRun().nodes.findIndex((n) => n.instancePath === '/contractor-sanctions/ofac-check');
    await page.locator(`main svg a[href="#disposition-${i}"]`).click();
    await page.waitForFunction(`location.hash === '#disposition-${i}'`);
    expect(await page.locator(`#disposition-${i}`).textContent()).toContain('missing-required-evidence');
    expect(await page.locator(`#disposition-${i}`).textContent()).toContain('to Sanctions Compliance Officer');
    await page.close();
  });

  it('runs nothing for a run whose ids, pointers, pack names and handoff target are markup, and shows them as text', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1800, height: 1000 } });
    const s = await open(page, hostile.url, 'main svg a.graph-node');
    expectInert(s, { inSvg: [HOSTILE_ID, HOSTILE_TARGET], onPage: [HOSTILE_ID, `to ${HOSTILE_TARGET}`] });
    await page.close();
  });

  it('says how to start the console with a graph run when it has none', async () => {
    const page = await b.browser.newPage();
    const s = await open(page, none.url, 'main p.problem');
    expect(s.text).toContain('--graph-result');
    await page.close();
  });
});
