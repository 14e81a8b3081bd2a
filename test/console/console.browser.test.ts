/**
 * The console over the local stack, in Chromium: the demo requests go through SQS and the real evaluate runtime into
 * the DynamoDB ledger; the console (stack mode, port 0) reads them back over the wire. An auditor opens the overview,
 * searches a request and opens its entry, replays it, verifies the ledger, and — after one ledger item is edited
 * through the DynamoDB API — sees the verdict turn false with the finding linked to that entry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rewriteEntryAt } from '../adapters/entry-item-at.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMessage } from '../../adapters/sqs.js';
import { validatePack } from '../../core/pack/index.js';
import { buildRequest } from '../../core/pipeline/request-builder.js';
import { DEMO_PACKS, DEMO_REQUESTS } from '../../stack/local-demo.js';
import { stackDeps } from '../../cli/commands/replay.js';
import { packageRoot, startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openStackSource, type ConsoleSource } from '../../cli/console/source.js';
import { startE2e, type E2eWorld } from '../e2e/harness.js';
import { ensureBuilt, launchChromium, type TestBrowser } from './browser.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

const ROOT = packageRoot();
const example = (p: string) => new Uint8Array(readFileSync(join(ROOT, 'examples', p)));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let w: E2eWorld;
let source: ConsoleSource;
let c: RunningConsole;
let b: TestBrowser;
const ids: string[] = [];

async function recorded(wanted: readonly string[], timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await Promise.all(wanted.map((id) => findPosition(w.store, id)));
    if (found.every((p) => p !== null)) return;
    if (Date.now() > until) throw new Error(`not recorded: ${wanted.filter((_, i) => found[i] === null).join(', ')}`);
    await sleep(200);
  }
}

beforeAll(async () => {
  await ensureBuilt(ROOT);
  w = await startE2e({ stage: 'console' });
  const digests = new Map<string, string>();
  for (const file of DEMO_PACKS) {
    const bytes = example(file);
    const v = validatePack(bytes);
    if (!v.conformant || !v.pack) continue;
    const plain = v.pack.plain as { id: string; version: string };
    const out = await w.registry.publish(String(plain.id), String(plain.version), bytes);
    if (!out.ok) throw new Error(out.message);
    digests.set(file, out.digest);
  }
  for (const r of DEMO_REQUESTS) {
    const digest = digests.get(r.pack);
    if (!digest) continue;
    const built = buildRequest({
      requestId: `console-${r.name}`,
      pack: `sha256:${digest}`,
      facts: example(`requests/${r.facts}`),
      ...(r.evidence ? { evidence: example(`requests/${r.evidence}`) } : {}),
      ...(r.workBudget ? { workBudget: r.workBudget } : {}),
    });
    if (!built.ok) throw new Error(built.error);
    await sendMessage(w.sqs, w.queueUrl('intake'), { body: built.value });
    ids.push(`console-${r.name}`);
  }
  await recorded(ids);
  // Checkpoints every log (stored in the table, where the console finds them) and confirms the CLI's own verdict.
  const cli = await w.verify();
  expect(cli.exitCode, cli.stdout + cli.stderr).toBe(0);
  source = await openStackSource({
    flags: {
      endpoint: w.stack.endpoint,
      region: w.stack.region,
      stage: 'console',
      table: w.env.LEDGER_TABLE!,
      'packs-table': w.env.PACKS_TABLE!,
      'requests-table': w.env.REQUESTS_TABLE!,
    },
    policyPath: w.policyPath,
    // This stack's checkpoints are in its table; a local run's export in the working directory is another stack's.
    checkpointsPath: null,
    replayDeps: { ...stackDeps, buildDigest: () => 'e'.repeat(64) },
  });
  c = await startConsoleServer({ source, host: '127.0.0.1', port: 0 });
  b = await launchChromium();
}, 240_000);

afterAll(async () => {
  await b?.close();
  await c?.close();
  source?.close();
  await w?.stop();
});

const at = (path: string) => `${c.url.replace(/\/$/, '')}${path}`;

describe('the audit console over the local stack', () => {
  it("shows a routed entry's handoffs with the stage's queues and their depth, read without receiving", async () => {
    const page = await b.browser.newPage();
    await page.goto(at('/entry/console-triage-7a'));
    const table = await page.waitForSelector('table.handoffs');
    const rows = await table.$$eval('tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r[3]).toMatch(/^docket-console-/);
      expect(r[4]).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(r[5]).toMatch(/^\d+ visible, \d+ in flight$/);
    }
    await page.close();
  });

  it('opens the overview with every log, its head and its newest checkpoint', async () => {
    const page = await b.browser.newPage();
    await page.goto(at('/'));
    await page.waitForSelector('[data-overview-ready]');
    const logs = await page.$$eval('table.logs tbody tr', (rows) => rows.length);
    expect(logs).toBe((await w.store.listLogs()).length);
    const text = (await page.textContent('main')) ?? '';
    expect(text).toContain(`${ids.length} entries`);
    expect(text).not.toContain('none');
    await page.waitForSelector('[data-chart-ready]');
    expect(await page.$$eval('figure.chart', (f) => f.length)).toBe(2);
    await page.close();
  });

  it('searches a demo request and opens its entry page with a valid signature and inclusion proof', async () => {
    const page = await b.browser.newPage();
    await page.goto(at('/'));
    await page.waitForSelector('[data-overview-ready]');
    await page.fill('#search-request', 'console-vendor-onboard');
    await page.press('#search-request', 'Enter');
    await page.waitForSelector('table.entries tbody tr');
    expect(new URL(page.url()).search).toBe('?requestId=console-vendor-onboard');
    await page.click('a.request >> text=console-vendor-onboard');
    await page.waitForSelector('dl.facts');
    expect(new URL(page.url()).pathname).toBe('/entry/console-vendor-onboard');
    expect(await page.getAttribute('[data-signature]', 'data-signature')).toBe('ok');
    expect(await page.getAttribute('[data-inclusion]', 'data-inclusion')).toBe('verified');
    expect(await page.textContent('dd.pack')).toContain('vendor');
    expect(await page.textContent('dd.disposition-kind')).toContain('outcome');
    // The pack's rules from the stack's registry, the one that fired by a traced replay (ADR 0232).
    await page.waitForSelector('[data-pack-registered]');
    expect(await page.getAttribute('[data-pack-registered]', 'data-pack-registered')).toBe('true');
    expect(await page.$$eval('a[data-fired]', (as) => as.map((a) => a.getAttribute('data-fired')))).toEqual([
      'onboard-low-risk',
    ]);
    // An outcome fans out no handoff (ADR 0233).
    expect(await (await page.waitForSelector('[data-handoffs]')).getAttribute('data-handoffs')).toBe('0');
    await page.close();
  });

  it('replays an entry from its page and shows the match with the compared members', async () => {
    const page = await b.browser.newPage();
    await page.goto(at('/entry/console-vendor-onboard'));
    await page.waitForSelector('dl.facts');
    await page.click('button:has-text("Replay")');
    await page.waitForSelector('[data-replay]');
    expect(await page.getAttribute('[data-replay]', 'data-replay')).toBe('replay-match');
    expect(await page.textContent('.replay')).toContain('Compared: requestId, correlation');
    await page.close();
  });

  it('runs verify with a progress bar and reads data-verify-ok="true"', async () => {
    const page = await b.browser.newPage();
    await page.goto(at('/verify'));
    await page.waitForSelector('[data-verify-ok]');
    expect(await page.getAttribute('[data-verify-ok]', 'data-verify-ok')).toBe('true');
    expect(await page.$$('.finding')).toHaveLength(0);
    await page.close();
  });

  it('shows data-verify-ok="false" with the finding linked to the entry after one ledger item is edited', async () => {
    const p = await findPosition(w.store, 'console-triage-7a');
    expect(p).not.toBeNull();
    // The attacker rewrites the item's unsigned projection so queries by request id find another request.
    await rewriteEntryAt(w.dynamodb, w.env.LEDGER_TABLE!, p!.logId, p!.seq, (a) => ({
      ...a,
      requestId: { S: 'console-someone-else' },
    }));
    const page = await b.browser.newPage();
    await page.goto(at('/verify'));
    await page.waitForSelector('[data-verify-ok]');
    expect(await page.getAttribute('[data-verify-ok]', 'data-verify-ok')).toBe('false');
    const group = page.locator('.finding-group[data-code="projection-mismatch"]');
    expect(await group.locator('.finding').count()).toBe(1);
    expect(await group.textContent()).toContain(`seq ${p!.seq}`);
    await group.locator('a').click();
    await page.waitForSelector('dl.facts');
    expect(new URL(page.url()).pathname).toBe('/entry/console-triage-7a');
    await page.close();
  });

  it('names an accepted request that left no entry, from the request archive, as docket verify does', async () => {
    // Retained as the pipeline retains every request before its entry, but never appended: an omission.
    const built = buildRequest({
      requestId: 'console-vanished',
      pack: `sha256:${'0'.repeat(64)}`,
      facts: example('requests/expense-travel.facts.json'),
    });
    if (!built.ok) throw new Error(built.error);
    const { digest } = await w.archive.put(new TextEncoder().encode(built.value));
    const page = await b.browser.newPage();
    await page.goto(at('/verify'));
    await page.waitForSelector('[data-verify-ok]');
    expect(await page.getAttribute('[data-verify-ok]', 'data-verify-ok')).toBe('false');
    const group = page.locator('.finding-group[data-code="request-without-entry"]');
    expect(await group.locator('.finding').count()).toBe(1);
    const text = await group.textContent();
    expect(text).toContain('request console-vanished');
    expect(text).toContain(`requestDigest ${digest}`);
    await page.close();
  });
});
