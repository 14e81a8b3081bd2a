/**
 * Time from `npm start` to a ready local stack, cold and warm (ADR 0111, ADR 0112):
 *   - stack ready: `docket local start`'s daemon start (spawn, synthesize the template, start dynalite and fauxqs,
 *     provision, start the function thread with the evaluate handler) until its state file says ready;
 *   - whole command: `node bin/docket.js local start --port 0` (the stack, then the demo: publish, submit, wait for
 *     16 entries, checkpoint, verify) until it exits.
 * Cold = an empty `.docket/local` (first start: everything created); warm = a restart on the data a graceful stop
 * left (tables, queues, topics and objects read back from LevelDB and SQLite). Same-run baseline: `node -e 0`, the
 * cost of starting a Node process at all on this machine, reported as a ratio.
 *
 *   npm run build && node dist/bench/start.bench.js        (BENCH_START_ROUNDS=3 of each)
 */
import './support/node-crypto.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipelineHandlers, startDaemon, stopDaemon } from '../localstack/daemon.js';
import { ensureSigningKey } from '../stack/local-files.js';

const BENCH_COMMAND = 'npm run build && node dist/bench/start.bench.js';
const ROUNDS = Math.max(1, Number(process.env.BENCH_START_ROUNDS ?? 3));
const root = fileURLToPath(new URL('../../', import.meta.url));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]): string => `${median(xs).toFixed(0)} ms median (${xs.map((x) => x.toFixed(0)).join(', ')})`;

async function stackReady(stateDir: string, keyFile: string): Promise<number> {
  const t0 = performance.now();
  await startDaemon({
    stateDir,
    port: 0,
    handlers: pipelineHandlers({
      sequence: join(root, 'dist/functions/sequence.js'),
      evaluate: join(root, 'dist/functions/evaluate.js'),
      deliver: join(root, 'dist/functions/deliver.js'),
    }),
    env: { DOCKET_SIGNING_KEY_FILE: keyFile, POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true' },
  });
  return performance.now() - t0;
}

function wholeCommand(cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin/docket.js'), 'local', 'start', '--port', '0'], {
    cwd,
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`docket local start exited ${r.status}: ${r.stderr}`);
  return ms;
}

function stopIn(cwd: string): void {
  spawnSync(process.execPath, [join(root, 'bin/docket.js'), 'local', 'stop'], { cwd });
}

async function main(): Promise<void> {
  const baseline: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  const cmdCold: number[] = [];
  const cmdWarm: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    baseline.push(performance.now() - t0);

    const dir = mkdtempSync(join(tmpdir(), 'docket-start-bench-'));
    const stateDir = join(dir, 'state');
    const keyFile = join(dir, 'key.json');
    ensureSigningKey(keyFile);
    try {
      cold.push(await stackReady(stateDir, keyFile));
      await stopDaemon({ stateDir });
      warm.push(await stackReady(stateDir, keyFile));
      await stopDaemon({ stateDir });
      cmdCold.push(wholeCommand(dir));
      stopIn(dir);
      cmdWarm.push(wholeCommand(dir));
      stopIn(dir);
    } finally {
      await stopDaemon({ stateDir }).catch(() => undefined);
      stopIn(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const b = median(baseline);
  console.log(`local stack start, ${ROUNDS} rounds (Node ${process.version})`);
  console.log(`  stack ready, cold     : ${fmt(cold)}  → ${(median(cold) / b).toFixed(1)}× node -e 0`);
  console.log(`  stack ready, warm     : ${fmt(warm)}  → ${(median(warm) / b).toFixed(1)}× node -e 0`);
  console.log(`  docket local start, cold (stack + demo + verify): ${fmt(cmdCold)}`);
  console.log(`  docket local start, warm (stack + demo + verify): ${fmt(cmdWarm)}`);
  console.log(`  baseline node -e 0    : ${fmt(baseline)}`);
  console.log(`  command: ${BENCH_COMMAND}`);
}

await main();
