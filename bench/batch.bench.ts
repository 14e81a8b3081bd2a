/**
 * `docket evaluate --batch` as a whole process, next to the in-process evaluator on the same documents.
 *
 *   npm run build && node dist/bench/batch.bench.js
 *   (BENCH_BATCH_LARGE=200000 for a shorter large run)
 *
 * Workload: RFC 0006's triage pack (examples/data-request-intake-triage.json) and 50,000 batch lines
 * {"facts": …, "evidence": …} built from the evaluate bench's seeded documents (support/triage-facts.ts).
 * In-process: evaluateCompiled over the same 50,000 facts and evidence byte arrays (what evaluate.bench measures),
 *   best of three passes after a warm-up pass; and the batch loop itself (streamBatch over the file's bytes in
 *   64 KiB chunks, output discarded), to separate the line handling from process start and I/O.
 * Whole process: `node bin/docket.js evaluate --pack … --batch <file>` with stdout to /dev/null, wall time from
 *   spawn to exit (process start, module loading and pack compilation included), best of three; a one-line run
 *   gives the fixed start cost. Then 1,000,000 lines (the 50,000 repeated) through a pipe on stdin. Peak memory is
 *   the child's own ru_maxrss (support/report-max-rss.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateLine } from '../cli/batch/line-evaluator.js';
import { streamBatch } from '../cli/batch/stream-batch.js';
import { evaluateCompiled } from '../core/evaluate/index.js';
import { compiledTriagePack, triageInputs } from './support/triage-facts.js';

const COMMAND = 'npm run build && node dist/bench/batch.bench.js';
const root = fileURLToPath(new URL('../../', import.meta.url));
const PACK = join(root, 'examples/data-request-intake-triage.json');
const DOCKET = join(root, 'bin/docket.js');
const RSS_REPORTER = fileURLToPath(new URL('./support/report-max-rss.js', import.meta.url));
const N = 50_000;
const LARGE = Number(process.env.BENCH_BATCH_LARGE ?? 1_000_000);

const seconds = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e9;
const rate = (n: number, s: number): string => `${Math.round(n / s).toLocaleString('en-US')}/s`;
const mib = (kib: number): string => `${(kib / 1024).toFixed(1)} MiB`;

interface Run {
  readonly seconds: number;
  readonly maxRssKiB: number;
  readonly outBytes: number;
}

function maxRss(stderr: string): number {
  const m = /maxRSS (\d+)/.exec(stderr);
  if (m === null) throw new Error(`the child reported no maxRSS: ${stderr}`);
  return Number(m[1]);
}

/** The whole command over a file, stdout counted and discarded. */
function wholeProcess(file: string): Run {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    ['--import', RSS_REPORTER, DOCKET, 'evaluate', '--pack', PACK, '--batch', file],
    {
      encoding: 'buffer',
      maxBuffer: 1 << 30,
    },
  );
  const s = seconds(t0);
  if (r.status !== 0 && r.status !== 2) throw new Error(`docket exited ${r.status}: ${r.stderr.toString()}`);
  return { seconds: s, maxRssKiB: maxRss(r.stderr.toString()), outBytes: r.stdout.length };
}

/** The whole command reading `repeat` copies of `input` from a pipe on stdin. */
async function wholeProcessStdin(input: Uint8Array, repeat: number): Promise<Run & { lines: number }> {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--import', RSS_REPORTER, DOCKET, 'evaluate', '--pack', PACK, '--batch', '-']);
  let outBytes = 0;
  let lines = 0;
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => {
    outBytes += b.length;
    for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) lines++;
  });
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  for (let i = 0; i < repeat; i++)
    if (!child.stdin.write(input)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  child.stdin.end();
  const code = await exited;
  const s = seconds(t0);
  if (code !== 0 && code !== 2) throw new Error(`docket exited ${code}: ${stderr}`);
  return { seconds: s, maxRssKiB: maxRss(stderr), outBytes, lines };
}

async function* chunksOf(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function main(): Promise<void> {
  const compiled = compiledTriagePack();
  const { inputs, lines } = triageInputs(N, 20261202);
  const batchBytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'docket-batch-bench-'));
  try {
    const file = join(dir, 'triage-50k.jsonl');
    const one = join(dir, 'triage-1.jsonl');
    writeFileSync(file, batchBytes);
    writeFileSync(one, `${lines[0]}\n`);

    // In-process: the evaluator alone, then the batch loop, best of three after a warm-up.
    let sink = 0;
    const evalPass = (): number => {
      const t0 = process.hrtime.bigint();
      for (const input of inputs) sink += evaluateCompiled(compiled, input).work;
      return seconds(t0);
    };
    const settings = { supportedExtensions: new Set<string>(), workBudget: undefined };
    const loopPass = async (): Promise<number> => {
      const t0 = process.hrtime.bigint();
      await streamBatch(
        chunksOf(batchBytes, 65_536),
        { write: (t) => (sink += t.length), drained: () => undefined },
        (line) => evaluateLine(compiled, line, settings),
      );
      return seconds(t0);
    };
    evalPass();
    await loopPass();
    const evalBest = Math.min(evalPass(), evalPass(), evalPass());
    const loopBest = Math.min(await loopPass(), await loopPass(), await loopPass());

    const start = [wholeProcess(one), wholeProcess(one), wholeProcess(one)].sort((a, b) => a.seconds - b.seconds)[0]!;
    const runs = [wholeProcess(file), wholeProcess(file), wholeProcess(file)].sort((a, b) => a.seconds - b.seconds);
    const best = runs[0]!;
    const large = await wholeProcessStdin(batchBytes, Math.ceil(LARGE / N));
    const largeN = Math.ceil(LARGE / N) * N;
    if (large.lines !== largeN) throw new Error(`expected ${largeN} result lines, got ${large.lines}`);

    const inProcess = N / evalBest;
    const whole = N / best.seconds;
    const out = [
      `batch bench — ${COMMAND}`,
      `node ${process.version}; pack examples/data-request-intake-triage.json; ${N.toLocaleString('en-US')} lines, ${batchBytes.length.toLocaleString('en-US')} bytes (${Math.round(batchBytes.length / N)} per line)`,
      `in-process evaluateCompiled (same facts + evidence bytes):   ${rate(N, evalBest)} (${(evalBest * 1000).toFixed(0)} ms)`,
      `in-process batch loop (split, read line, evaluate, write):   ${rate(N, loopBest)} (${(loopBest * 1000).toFixed(0)} ms) → ${(evalBest / loopBest).toFixed(2)}× the evaluator's rate`,
      `whole process, 1 line (start, load, compile the pack):       ${(start.seconds * 1000).toFixed(0)} ms, peak RSS ${mib(start.maxRssKiB)}`,
      `whole process, ${N.toLocaleString('en-US')} lines from a file (best of 3):    ${rate(N, best.seconds)} (${best.seconds.toFixed(2)} s; runs ${runs.map((x) => x.seconds.toFixed(2)).join(', ')} s), peak RSS ${mib(best.maxRssKiB)}`,
      `  ratio whole process / in-process evaluator: ${(whole / inProcess).toFixed(2)}`,
      `  without the fixed start: ${rate(N, best.seconds - start.seconds)}`,
      `whole process, ${largeN.toLocaleString('en-US')} lines through a stdin pipe: ${rate(largeN, large.seconds)} (${large.seconds.toFixed(1)} s), peak RSS ${mib(large.maxRssKiB)} (${(large.maxRssKiB / best.maxRssKiB).toFixed(2)}× the ${N.toLocaleString('en-US')}-line run), ${(large.outBytes / 1e6).toFixed(0)} MB out`,
    ];
    console.log(out.join('\n'));
    if (sink === -1) console.log('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
