/**
 * The screenshots in docs/console.md, taken in headless Debian Chromium from a small generated ledger (files mode):
 * the overview, the entries list, an entry page, the verify page (over a ledger with one edited projection, so
 * a finding shows) and the receipt page verifying a receipt of the receipt corpus (with its witness policy and facts). Not a benchmark: it lives here because bench/ is where the build compiles the repo's scripts.
 * Reproduce: npm run build && node dist/bench/console-screenshots.js
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, requireChromium } from '../test/console/browser.js';
import { buildLog, checkpointsText, checkpointV2Of, exportText, K1, KC } from '../conformance/ledger/fixtures.js';
import { packageRoot, startConsoleServer } from '../cli/console/server.js';
import { openFileSource } from '../cli/console/source.js';
import { policyFromSeq0 } from './support/generated-ledger.js';

const root = packageRoot();
const out = join(root, 'docs', 'console');
const dir = mkdtempSync(join(tmpdir(), 'docket-console-shots-'));
const logIds = ['prod-0', 'prod-1', 'prod-2'];
const logs = logIds.map((id, i) =>
  buildLog(
    id,
    40 + i * 7,
    () => K1,
    (seq) => ({
      correlation: { tenant: ['acme', 'globex', 'initech'][seq % 3] as string, ticket: `T-${1000 + seq}` },
    }),
  ),
);
const files = {
  exportPath: join(dir, 'ledger.jsonl'),
  checkpointsPath: join(dir, 'checkpoints.json'),
  policyPath: join(dir, 'trust-policy.json'),
};
const policy = policyFromSeq0(logIds);
const cps = checkpointsText(logs.map((l, i) => checkpointV2Of(l, logIds[i] as string, l.length - 3, KC)));
writeFileSync(files.checkpointsPath, cps);
writeFileSync(files.policyPath, policy);

const tampered = logs.map((l) => [...l]);
const victim = tampered[1]![12]!;
tampered[1]![12] = { ...victim, projection: { ...victim.projection, requestId: 'someone-else' } };

const browser = await chromium.launch({ executablePath: requireChromium(), headless: true, args: CHROMIUM_ARGS });
/** A page to shoot: its path, what shows it is ready, the file name, and what to do on it first. */
type Shot = [string, string, string, ((page: Page) => Promise<void>)?];

const RECEIPT = join(root, 'conformance', 'ledger', 'receipts', 'honest-witnessed-with-facts');
/** Chooses the receipt, trust policy, witness policy and facts in /receipt's file fields, then verifies. */
async function verifyReceipt(page: Page): Promise<void> {
  for (const [slot, file] of [
    ['receipt', 'receipt.json'],
    ['policy', 'policy.json'],
    ['witnesses', 'witness-policy.json'],
    ['facts', 'facts.json'],
  ] as const) {
    await page.setInputFiles(`#receipt-${slot}`, join(RECEIPT, file));
    await page.waitForSelector(`[data-chosen="${slot}"]`);
  }
  await page.click('text=Verify the receipt');
}

async function shoot(ledger: readonly (typeof logs)[number][], shots: Shot[]): Promise<void> {
  writeFileSync(files.exportPath, exportText(ledger.flat()));
  const server = await startConsoleServer({ source: await openFileSource(files), host: '127.0.0.1', port: 0 });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
    for (const [path, ready, name, act] of shots) {
      await page.goto(`${server.url.replace(/\/$/, '')}${path}`);
      if (act) await act(page);
      await page.waitForSelector(ready);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
      process.stdout.write(`docs/console/${name}.png\n`);
    }
  } finally {
    await server.close();
  }
}
try {
  await shoot(logs, [
    ['/', '[data-chart-ready]', 'overview'],
    ['/entries?pack=triage', 'table.entries tbody tr', 'entries'],
    ['/entry/prod-1-req-9', '[data-inclusion]', 'entry'],
    ['/receipt', '[data-receipt-ok]', 'receipt', verifyReceipt],
  ]);
  await shoot(tampered, [['/verify', '[data-verify-ok]', 'verify']]);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
