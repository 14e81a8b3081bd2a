/**
 * The overview's witness section in Chromium (ADR 0231), files mode over witness corpus scenarios: each log's row
 * says whether its newest checkpoint meets the policy, and the findings listed are verify's witness findings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWitnessFiles } from '../../core/ledger/index.js';
import { packageRoot, startConsoleServer } from '../../cli/console/server.js';
import { openFileSource } from '../../cli/console/source.js';
import { ensureBuilt, launchChromium, type TestBrowser } from './browser.js';

const WITNESS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'witness');
let b: TestBrowser;

beforeAll(async () => {
  await ensureBuilt(packageRoot());
  b = await launchChromium();
});
afterAll(async () => {
  await b?.close();
});

/** The overview of one scenario, with its witness policy and cosigned notes at the corpus's clock. */
async function overviewOf(name: string) {
  const p = (f: string) => join(WITNESS, name, f);
  const now = (JSON.parse(readFileSync(p('expected.json'), 'utf8')) as { verify: { now: number } }).verify.now;
  const w = readWitnessFiles(
    { name: 'witness-policy.json', bytes: readFileSync(p('witness-policy.json')) },
    [{ name: 'cosigned.json', bytes: readFileSync(p('cosigned.json')) }],
    now,
  );
  if (!w.ok) throw new Error(w.error.detail);
  const source = await openFileSource({
    exportPath: p('ledger.jsonl'),
    checkpointsPath: p('checkpoints.json'),
    policyPath: p('policy.json'),
    witnesses: { inputs: w.value, now: () => now },
  });
  const c = await startConsoleServer({ source, host: '127.0.0.1', port: 0 });
  const page = await b.browser.newPage();
  try {
    await page.goto(c.url);
    await page.waitForSelector('[data-witnesses-ready]');
    const rows = await page.$$eval('tr[data-witness-log]', (trs) =>
      trs.map((tr) => [tr.getAttribute('data-witness-log'), tr.getAttribute('data-meets-policy')]),
    );
    const findings = await page.$$eval('[data-finding]', (ls) => ls.map((l) => l.getAttribute('data-finding')));
    return { rows, findings, policy: await page.getAttribute('[data-witness-policy]', 'data-witness-policy') };
  } finally {
    await page.close();
    await c.close();
  }
}

describe("the overview's witness section", () => {
  it('says a witnessed log meets the policy and lists no finding', async () => {
    const o = await overviewOf('witnessed-honest');
    expect(o.policy).toBe('given');
    expect(o.rows.length).toBeGreaterThan(0);
    expect(o.rows.every(([, meets]) => meets === 'true')).toBe(true);
    expect(o.findings).toEqual([]);
  });

  it('says an unwitnessed newest checkpoint does not meet the policy and lists the finding', async () => {
    const o = await overviewOf('unwitnessed-newest-checkpoint');
    expect(o.rows.some(([, meets]) => meets === 'false')).toBe(true);
    expect(o.findings).toContain('unwitnessed-anchor');
  });
});
