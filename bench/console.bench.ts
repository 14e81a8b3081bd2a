/**
 * The audit console's time to first paint of the overview on a generated ledger (docs/performance.md "The audit
 * console"), files mode, headless Chromium, beside a same-run baseline: reading the export (readFile plus the strict
 * export reader), the least any viewer of the file must do. Measured from navigation start to the overview's figures
 * ([data-overview-ready], ADR 0230) and to its charts ([data-chart-ready]: the server indexes every entry first), cold
 * and warm, with the shell's first-contentful-paint. The console runs as its own process, as an auditor runs it: in
 * this process its indexing would also delay Playwright's own messages.
 * Reproduce: npm run build && node dist/bench/console.bench.js [entries]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, requireChromium } from '../test/console/browser.js';
import { generatedLedger } from './support/generated-ledger.js';
import { spawn } from 'node:child_process';
import { readLedgerExportFast } from '../core/ledger/index.js';
import { useNodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';
import { packageRoot } from '../cli/console/server.js';

useNodeLedgerCrypto();
const total = Number(process.argv[2] ?? 100_000);

const dir = mkdtempSync(join(tmpdir(), 'docket-console-bench-'));
const t0 = performance.now();
const generated = generatedLedger(total, 0);
const entries = generated.records.length;
const exportPath = join(dir, 'ledger.jsonl');
const checkpointsPath = join(dir, 'checkpoints.json');
const policyPath = join(dir, 'trust-policy.json');
writeFileSync(exportPath, generated.exportText);
writeFileSync(checkpointsPath, generated.checkpointsText);
writeFileSync(policyPath, generated.policyText);
process.stdout.write(`generated ${entries} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s (${dir})\n`);

async function baseline(): Promise<number> {
  const start = performance.now();
  const r = readLedgerExportFast(new Uint8Array(await readFile(exportPath)));
  if (!r.ok) throw new Error(r.error.detail);
  return performance.now() - start;
}

const base = await baseline();
// The command reads the export before it listens; the URL on its stdout says it is ready.
const child = spawn(
  process.execPath,
  [
    join(packageRoot(), 'bin', 'docket.js'),
    'console',
    '--port',
    '0',
    '--export',
    exportPath,
    '--checkpoints',
    checkpointsPath,
    '--policy',
    policyPath,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    out += d;
    const m = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
    if (m) resolve(m[1] as string);
  });
  child.once('exit', (code) => reject(new Error(`docket console exited ${String(code)}`)));
});
const browser = await chromium.launch({ executablePath: requireChromium(), headless: true, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const paint = async () => {
    const start = performance.now();
    await page.goto(url);
    await page.waitForSelector('[data-overview-ready]');
    const ms = performance.now() - start;
    await page.waitForSelector('[data-chart-ready]', { timeout: 600_000 });
    const charts = performance.now() - start;
    const fcp = (await page.evaluate(
      `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`,
    )) as number;
    return { ms, charts, fcp };
  };
  const cold = await paint();
  const warm = await paint();
  const ratio = (x: number) => (x / base).toFixed(2);
  process.stdout.write(
    [
      `baseline  read the export (readFile + strict reader): ${base.toFixed(0)} ms`,
      `overview  first paint with figures, cold:                         ${cold.ms.toFixed(0)} ms  = ${ratio(cold.ms)} × baseline`,
      `overview  first paint with figures, warm (reload):                ${warm.ms.toFixed(0)} ms  = ${ratio(warm.ms)} × baseline`,
      `overview  charts on screen, cold (server indexes ${entries} entries): ${cold.charts.toFixed(0)} ms  = ${ratio(cold.charts)} × baseline`,
      `overview  charts on screen, warm (reload, index kept):            ${warm.charts.toFixed(0)} ms  = ${ratio(warm.charts)} × baseline`,
      `browser   first-contentful-paint of the shell: cold ${cold.fcp.toFixed(0)} ms, warm ${warm.fcp.toFixed(0)} ms`,
      `command   npm run build && node dist/bench/console.bench.js ${total}`,
      '',
    ].join('\n'),
  );
} finally {
  await browser.close();
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
