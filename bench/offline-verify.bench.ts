/**
 * The offline page's verification rate (console/dist/offline.html, ADR 0186; docs/verify.md) next to `docket verify`
 * as a child process on the same export files (support/generated-ledger.ts), in the same run: the CLI's wall time
 * includes process start and file reading; the page's is from the click to the verdict in headless Chromium, its
 * own measure printed beside it. One run each: the machine is shared.
 * Reproduce: npm run build && node dist/bench/offline-verify.bench.js [entries] [--all-signatures]
 */
import './support/node-crypto.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generatedLedger } from './support/generated-ledger.js';
import { buildOfflinePage, openOfflinePage, verifyInPage } from '../test/console/offline-browser.js';

const total = Number(process.argv.find((a, i) => i >= 2 && /^\d+$/.test(a)) ?? 100_000);
const allSignatures = process.argv.includes('--all-signatures');
const root = join(import.meta.dirname, '..', '..');

const t0 = performance.now();
const generated = generatedLedger(total, 100);
const entries = generated.records.length;
const dir = mkdtempSync(join(tmpdir(), 'docket-offline-bench-'));
const files = {
  ledger: join(dir, 'ledger.jsonl'),
  checkpoints: join(dir, 'checkpoints.json'),
  policy: join(dir, 'policy.json'),
};
writeFileSync(files.ledger, generated.exportText);
writeFileSync(files.checkpoints, generated.checkpointsText);
writeFileSync(files.policy, generated.policyText);
process.stdout.write(`generated ${entries} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s (${dir})\n`);

try {
  const args = ['verify', '--export', files.ledger, '--checkpoints', files.checkpoints, '--policy', files.policy];
  if (allSignatures) args.push('--all-signatures');
  const c0 = performance.now();
  const cli = spawnSync(process.execPath, [join(root, 'bin', 'docket.js'), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const cliMs = performance.now() - c0;
  if (cli.status !== 0) throw new Error(`docket verify must pass the generated export: ${cli.stdout}${cli.stderr}`);

  await buildOfflinePage();
  const browser = await openOfflinePage();
  try {
    await browser.open();
    const p0 = performance.now();
    const page = await verifyInPage(browser.page, files, allSignatures, 3_600_000);
    const pageMs = performance.now() - p0;
    if (page.output !== cli.stdout.trimEnd()) throw new Error(`the page and the CLI disagree:\n${page.output}`);
    const rate = (ms: number) => Math.round(entries / (ms / 1000));
    const mode = allSignatures ? '--all-signatures' : 'checkpoint path';
    process.stdout.write(`node ${process.version}, ${entries} entries, ${mode}\n`);
    process.stdout.write(
      `docket verify (CLI process)         ${String(rate(cliMs)).padStart(8)} entries/s  ${(cliMs / 1000).toFixed(2)} s\n`,
    );
    process.stdout.write(
      `offline page, click to verdict     ${String(rate(pageMs)).padStart(8)} entries/s  ${(pageMs / 1000).toFixed(2)} s  ` +
        `(in-page ${page.seconds.toFixed(2)} s, Ed25519 ${page.engine})\n`,
    );
    process.stdout.write(`page / CLI rate: ${(cliMs / pageMs).toFixed(2)}×\n`);
    if (browser.refused.length > 0) throw new Error(`the page made requests: ${browser.refused.join(', ')}`);
  } finally {
    await browser.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
