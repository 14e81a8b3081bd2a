/**
 * A graph-run entry's page in Chromium (docs/console.md "A graph run's entry", ADR 0370, ADR 0371): the recorded run
 * of RFC 0022's worked example is drawn as an SVG DAG — nodes coloured by disposition kind, both subgraph instances
 * as boxes with their digest, feeds labelled, the requested handoffs marked — each node linking to its disposition
 * with the pack rules that fired there; a graph-run entry whose ids, pack names, pointers and handoff target are
 * markup runs nothing and shows each string as text.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { packageRoot, startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openFileSource } from '../../cli/console/source.js';
import { graphRules } from '../../cli/console/graph-rules.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { ensureBuilt, launchChromium, type TestBrowser } from './browser.js';
import { expectInert, probeGraphPage } from './graph-page-probe.js';
import { GRAPH_REQUEST, writeGraphLedgerFiles } from './graph-ledger-files.js';
import type { LedgerFiles } from './ledger-files.js';
import { HOSTILE_ID, HOSTILE_TARGET } from '../graph-view/fixtures.js';
import { PROJECT, ROOT_GRAPH } from '../ledger/graph-run-fixtures.js';

let files: LedgerFiles;
let withRules: RunningConsole;
let filesOnly: RunningConsole;
let b: TestBrowser;

beforeAll(async () => {
  await ensureBuilt(packageRoot());
  files = writeGraphLedgerFiles();
  const source = await openFileSource(files);
  // A stack would re-run the request from its archive and registry; here the same code runs over the example.
  withRules = await startConsoleServer({
    source: {
      ...source,
      graphRules: (entry) =>
        graphRules(entry, {
          requestBytes: (d) => Promise.resolve(d === sha256Hex(GRAPH_REQUEST) ? GRAPH_REQUEST : null),
          graph: () => Promise.resolve({ bytes: ROOT_GRAPH, project: PROJECT }),
        }),
    },
    host: '127.0.0.1',
    port: 0,
  });
  filesOnly = await startConsoleServer({ source: await openFileSource(files), host: '127.0.0.1', port: 0 });
  b = await launchChromium();
});

afterAll(async () => {
  await b?.close();
  for (const c of [withRules, filesOnly]) await c?.close();
  if (files) rmSync(files.dir, { recursive: true, force: true });
});

async function open(page: Page, base: string, requestId: string) {
  return probeGraphPage(page, `${base}entry/${encodeURIComponent(requestId)}`, 'main svg a.graph-node');
}

describe("a graph-run entry's page", () => {
  it('draws the recorded run: every leaf, both instances with their digest, the feeds and the requested handoffs', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1800, height: 1000 } });
    const s = await open(page, withRules.url, 'graph-run-1');
    expect(await page.locator('main svg a.graph-node').count()).toBe(7);
    expect(await page.locator('main svg g.graph-instance').count()).toBe(2);
    expect(await page.locator('main svg a.graph-node.kind-outcome').count()).toBe(3);
    expect(await page.locator('main svg a.graph-node.kind-unresolved').count()).toBe(4);
    expect(s.svgText).toContain('sha256:47e7c8483de7dc1f8d764c50b1d83c3048bf230e4c5d5ddb228ebcb965d85406');
    expect(s.svgText).toContain('⚑ handoff → Sanctions Compliance Officer');
    expect(await page.locator('main svg g.graph-edge.not-injected').count()).toBeGreaterThan(0);
    // What it was decided on: the graph and its closed set by digest, the opt-in it needed.
    expect(s.text).toContain('https://example.com/graphs/procurement-triage version 0.1.0');
    expect(await page.locator('dd.draft-features').textContent()).toBe('judgment-graphs');
    // The handoffs it fanned out, planned from the signed run as the evaluate function plans them (ADR 0361).
    const table = await page.waitForSelector('table.handoffs');
    expect(await table.getAttribute('data-handoffs')).toBe('2');
    expect(await page.locator('td.handoff-from').allTextContents()).toEqual([
      '/contractor-sanctions/ofac-check',
      '/contractor-sanctions/pep-check',
    ]);
    expect(await page.locator('table.handoffs').textContent()).toContain('human-role:Sanctions Compliance Officer');
    expect(s.violations).toEqual([]);
    await page.close();
  });

  it('takes a click on a node to its disposition and the pack rules that fired there', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1800, height: 1000 } });
    await open(page, withRules.url, 'graph-run-1');
    await page.waitForSelector('.graph-fired');
    const links = await page
      .locator('main svg a.graph-node')
      .evaluateAll((els) => els.map((a) => [a.querySelector('title')?.textContent ?? '', a.getAttribute('href')]));
    const [, href] = links.find(([t]) => t!.startsWith('/vendor-sanctions/pep-check '))!;
    await page.locator(`main svg a[href="${href}"]`).click();
    await page.waitForFunction(`location.hash === '${href}'`);
    const item = page.locator(href!);
    expect(await item.textContent()).toContain('outcome cleared');
    expect(
      await item.locator('[data-fired]').evaluateAll((els) => els.map((e) => e.getAttribute('data-fired'))),
    ).toEqual(['rule-domestic']);
    const contractorPep = links.find(([t]) => t!.startsWith('/contractor-sanctions/pep-check '))![1]!;
    expect(
      await page
        .locator(`${contractorPep} [data-fired]`)
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-fired'))),
    ).toEqual(['exc-sanctioned-country']);
    expect(await page.locator(contractorPep).textContent()).toMatch(/handoff\s+requested/);
    await page.close();
  });

  it('says which rules fired is not known when it reads files (no archive, no registry)', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1800, height: 1000 } });
    await open(page, filesOnly.url, 'graph-run-1');
    await page.waitForSelector('[data-fired-unknown]');
    expect(await page.locator('[data-fired-unknown]').first().textContent()).toContain('no request archive');
    await page.close();
  });

  it('runs nothing for an entry whose ids, pointers, pack names and handoff target are markup, and shows them as text', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1800, height: 1000 } });
    const s = await open(page, filesOnly.url, 'graph-run-hostile');
    expectInert(s, { inSvg: [HOSTILE_ID, HOSTILE_TARGET], onPage: [HOSTILE_ID, HOSTILE_TARGET] });
    await page.close();
  });
});
