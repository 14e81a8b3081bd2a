/**
 * Hostile ledger content in a real browser (ADR 0184): entries whose pack ids, outcome ids, correlation
 * values, error messages and request ids hold `<script>`, `<img onerror>`, `javascript:` URLs and a right-to-left
 * override are shown on every console page; nothing may execute (no `window.__pwned`, no dialog, no CSP violation),
 * no element or link may come from them, and each string must appear as text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sha256Hex } from '../../core/ledger/index.js';
import { ENTRY_FORMAT_V2 } from '../../core/ledger/entries/entry-types.js';
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { PACK_DIGEST } from '../../conformance/ledger/fixtures.js';
import { packageRoot, startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openFileSource, openStackSource } from '../../cli/console/source.js';
import { BUILD, request, world, writePolicyFile } from '../replay/world.js';
import { ensureBuilt, launchChromium, type TestBrowser } from './browser.js';
import { writeLedgerFiles, type LedgerFiles } from './ledger-files.js';

const SCRIPT = '<script>window.__pwned="script";alert(1)</script>';
const IMG = '<img src=x onerror="window.__pwned=\'img\';alert(2)">';
const JS_URL = 'javascript:window.__pwned="js";alert(3)';
const RTL = 'invoice\u202Etxt.exe';
const RTL_SHOWN = 'invoice⟨U+202E⟩txt.exe';

const disposition = { kind: 'outcome', outcomeId: 'approve', reasons: [], handoff: { state: 'none' } };
/** §8.3 outcome ids are local ids, so a hostile one makes the entry unreadable: its stored bytes are shown instead. */
const hostileOutcome = { ...disposition, outcomeId: IMG };
const HOSTILE: Record<number, Record<string, unknown>> = {
  0: {
    pack: { id: SCRIPT, version: IMG, digest: PACK_DIGEST },
    correlation: { link: JS_URL, name: RTL },
    disposition,
    dispositionDigest: sha256Hex(canonicalText(disposition)),
  },
  1: {
    error: { class: 'malformed-input', phase: 'preflight', code: 'facts-syntax', message: `${SCRIPT}${IMG}${JS_URL}` },
  },
  2: { refusal: { code: 'unknown-pack-digest', message: `${JS_URL} ${RTL}` } },
  3: { requestId: IMG },
  4: { requestId: JS_URL },
  5: { requestId: SCRIPT },
  6: { disposition: hostileOutcome, dispositionDigest: sha256Hex(canonicalText(hostileOutcome)) },
  // ADR 0220: names are lowercase tokens, so a readable /2 entry cannot carry markup; an unknown one is still shown.
  7: { format: ENTRY_FORMAT_V2, draftFeatures: ['rfc0008-quantifiers', 'rfc9999-future'] },
};

let files: LedgerFiles;
let c: RunningConsole;
let b: TestBrowser;

beforeAll(async () => {
  await ensureBuilt(packageRoot());
  files = writeLedgerFiles(['log-x'], 8, (_, seq) => HOSTILE[seq] ?? {});
  c = await startConsoleServer({ source: await openFileSource(files), host: '127.0.0.1', port: 0 });
  b = await launchChromium();
});

afterAll(async () => {
  await b?.close();
  await c?.close();
  if (files) rmSync(files.dir, { recursive: true, force: true });
});

/** Opens a console path, waits for it to settle, and returns what ran and what is shown. */
async function visit(page: Page, path: string, ready: string, base: string = c.url) {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  // Browser-side code as text: the tests compile without the DOM library.
  await page.addInitScript(`
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  `);
  await page.goto(`${base.replace(/\/$/, '')}${path}`);
  await page.waitForSelector(ready);
  await page.waitForTimeout(200);
  const state = (await page.evaluate(`(() => {
    const main = document.querySelector('main');
    return {
      pwned: window.__pwned ?? null,
      violations: window.__violations,
      text: main.textContent ?? '',
      scripts: document.querySelectorAll('main script, main img, main iframe, main object').length,
      hrefs: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''),
      handlers: [...document.querySelectorAll('main *')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
    };
  })()`)) as { pwned: unknown; violations: string[]; text: string; scripts: number; hrefs: string[]; handlers: number };
  return { ...state, dialogs };
}

function harmless(s: Awaited<ReturnType<typeof visit>>): void {
  expect(s.pwned).toBeNull();
  expect(s.dialogs).toEqual([]);
  expect(s.violations).toEqual([]);
  expect(s.scripts).toBe(0);
  expect(s.handlers).toBe(0);
  // Internal only: the skip link, console paths, and in-page anchors to a pack's rules (ids percent-encoded).
  for (const h of s.hrefs)
    expect(h === '#main' || h.startsWith('/') || /^#(rule|exception)-[\w%.-]+$/.test(h), h).toBe(true);
}

describe('the console with hostile ledger strings', () => {
  it('runs nothing on the entries list and shows every hostile request id and correlation as text', async () => {
    const page = await b.browser.newPage();
    const s = await visit(page, '/entries', 'table.entries tbody tr');
    harmless(s);
    for (const t of [SCRIPT, IMG, JS_URL, RTL_SHOWN]) expect(s.text).toContain(t);
    expect(s.text).not.toContain('\u202E');
    await page.close();
  });

  it('runs nothing on the page of an entry whose pack, outcome and correlation are hostile', async () => {
    const page = await b.browser.newPage();
    const s = await visit(page, '/entry/log-x-req-0', 'dl.facts');
    harmless(s);
    for (const t of [SCRIPT, IMG, JS_URL, RTL_SHOWN]) expect(s.text).toContain(t);
    expect(await page.textContent('dd.pack a')).toBe(SCRIPT);
    await page.close();
  });

  it('shows the draft features a format /2 entry recorded, as text, and none for a /1 entry', async () => {
    const page = await b.browser.newPage();
    const v2 = await visit(page, '/entry/log-x-req-7', 'dl.facts');
    harmless(v2);
    expect(await page.textContent('dd.draft-features')).toBe('rfc0008-quantifiers, rfc9999-future');
    await visit(page, '/entry/log-x-req-0', 'dl.facts');
    expect(await page.locator('dd.draft-features').count()).toBe(0);
    await page.close();
  });

  it('runs nothing on the pages of an error, a refusal and an unreadable entry with hostile text', async () => {
    const page = await b.browser.newPage();
    const err = await visit(page, '/entry/log-x-req-1', 'dd.message');
    harmless(err);
    expect(await page.textContent('dd.message')).toBe(`${SCRIPT}${IMG}${JS_URL}`);
    const ref = await visit(page, '/entry/log-x-req-2', 'dd.message');
    harmless(ref);
    expect(await page.textContent('dd.message')).toBe(`${JS_URL} ${RTL_SHOWN}`);
    const unreadable = await visit(page, '/entry/log-x-req-6', 'pre.body');
    harmless(unreadable);
    expect(await page.textContent('pre.body')).toContain(JSON.stringify(IMG).slice(1, -1));
    await page.close();
  });

  it('opens entries whose request ids are hostile through internal links only', async () => {
    const page = await b.browser.newPage();
    for (const id of [IMG, JS_URL, SCRIPT]) {
      const s = await visit(page, `/entry/${encodeURIComponent(id)}`, 'dl.facts');
      harmless(s);
      expect(await page.textContent('h1 .request-id')).toBe(id);
    }
    const list = await visit(page, `/entries?requestId=${encodeURIComponent(JS_URL)}`, 'table.entries tbody tr');
    harmless(list);
    await page.click('a.request');
    await page.waitForSelector('dl.facts');
    expect(new URL(page.url()).pathname).toBe(`/entry/${encodeURIComponent(JS_URL)}`);
    expect(await page.evaluate('window.__pwned ?? null')).toBeNull();
    await page.close();
  });

  it('runs nothing on the overview or the verify page, where hostile pack ids name chart series', async () => {
    const page = await b.browser.newPage();
    const o = await visit(page, '/', '[data-chart-ready]');
    harmless(o);
    expect(o.text).toContain(SCRIPT);
    const v = await visit(page, '/verify', '[data-verify-ok]');
    harmless(v);
    await page.close();
  });
});

/**
 * The registry is as untrusted as the ledger (§10): a conformant pack may carry markup in its descriptions and in
 * its condition values, and the entry page shows both beside the rules that fired (ADR 0232).
 */
describe('the console with a hostile pack in the registry', () => {
  const hostilePack = {
    specVersion: '0.3.0',
    id: 'https://packs.example.org/hostile',
    version: '1.0.0',
    title: SCRIPT,
    decision: { intent: IMG, question: JS_URL },
    evidenceRequirements: [],
    outcomes: [
      { id: 'approve', label: SCRIPT },
      { id: 'reject', label: IMG },
    ],
    rules: [
      {
        id: 'r-hostile',
        description: `${SCRIPT}${IMG}${RTL}`,
        when: { op: 'fact', path: '/x', operator: 'equals', value: IMG },
        outcome: 'approve',
        onUnknown: 'escalate',
      },
    ],
    escalation: { triggers: ['no-match', 'unknown'], target: { kind: 'queue', name: JS_URL } },
  };
  let dir: string;
  let hc: RunningConsole;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docket-console-hostile-pack-'));
    const w = world({ logIds: ['t-0'] });
    const bytes = new TextEncoder().encode(JSON.stringify(hostilePack));
    const digest = sha256Hex(bytes);
    w.packs.set(digest, bytes);
    await w.submit(request('hostile-pack-req', `sha256:${digest}`, JSON.stringify({ x: IMG })));
    const source = await openStackSource({
      flags: {},
      policyPath: writePolicyFile(w, join(dir, 'policy.json')),
      checkpointsPath: undefined,
      replayDeps: {
        open: () => ({ store: w.store, fetch: w.fetch, close: () => undefined }),
        buildDigest: () => BUILD,
      },
    });
    hc = await startConsoleServer({ source, host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await hc?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("runs nothing on an entry page that shows the hostile pack's rule, description and condition as text", async () => {
    const page = await b.browser.newPage();
    const s = await visit(page, '/entry/hostile-pack-req', '.pack-item[data-rule="r-hostile"] strong.ok', hc.url);
    harmless(s);
    for (const t of [SCRIPT, IMG, RTL_SHOWN]) expect(s.text).toContain(t);
    expect(s.text).not.toContain('\u202E');
    await page.close();
  });
});
