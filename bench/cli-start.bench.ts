/**
 * The CLI's start-up (docs/adr/0332-cli-start-up.md): `node bin/docket.js evaluate` of one facts document, and
 * `docket evaluate --batch` of a one-line file of the same facts, each next to a bare `node -e 0` on the same Node in
 * the same run, interleaved round by round; median of BENCH_CLI_ROUNDS (default 21) each, as a ratio (goal ≤ 3× for
 * both). Also with Node's compile cache off (NODE_DISABLE_COMPILE_CACHE=1), and started by an older Node (the
 * launcher's re-run on Node 24, ADR 0110) when this machine has one (/usr/bin/node < 22.5, or DOCKET_OLD_NODE). A
 * large batch as a whole process is bench/batch.bench.ts's.
 * BENCH_CLI_BASELINE=<another checkout's bin/docket.js> (built, e.g. from `git archive` of an older commit) times
 * that build's `docket evaluate`, single and `--batch` of one line, in the same rounds too: a before/after in one run.
 * CPU time (user + system, GNU time) is printed beside wall time: on a loaded shared machine it moves less.
 *
 *   npm run build && node dist/bench/cli-start.bench.js
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './support/timing.js';

const COMMAND = 'npm run build && node dist/bench/cli-start.bench.js';
const ROUNDS = Math.max(1, Number(process.env.BENCH_CLI_ROUNDS ?? 21));
const root = fileURLToPath(new URL('../../', import.meta.url));
const DOCKET = join(root, 'bin/docket.js');
const PACK = join(root, 'examples/data-request-intake-triage.json');
const FACTS = join(root, 'examples/requests/triage-instance-1-not-applicable.facts.json');

const ms = (xs: readonly number[]): string => `${median(xs).toFixed(0)} ms`;
const spread = (xs: readonly number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${s[0]!.toFixed(0)}, max ${s[s.length - 1]!.toFixed(0)}`;
};

/** One process's wall time (spawn to exit) and CPU time (user + system, from GNU time when present), in ms. */
interface Timing {
  readonly wall: number;
  readonly cpu: number;
}
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const cpuFile = join(mkdtempSync(join(tmpdir(), 'docket-cli-start-cpu-')), 'cpu');

/** Runs one process, which must exit 0. CPU time is NaN without GNU time. */
function timed(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Timing {
  const [file, argv] =
    GNU_TIME === undefined ? [cmd, args] : [GNU_TIME, ['-f', '%U %S', '-o', cpuFile, '--', cmd, ...args]];
  const t0 = performance.now();
  const r = spawnSync(file, argv, { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = GNU_TIME === undefined ? NaN : readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number);
  return { wall, cpu: Array.isArray(cpu) ? (cpu[0]! + cpu[1]!) * 1000 : cpu };
}

/** An older Node on this machine (< 22.5), to time the launcher's re-run on Node 24. */
function olderNode(): string | undefined {
  const candidate = process.env.DOCKET_OLD_NODE ?? '/usr/bin/node';
  if (!existsSync(candidate)) return undefined;
  const v = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  const [major = 0, minor = 0] = v.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 5) ? candidate : undefined;
}

function startUp(): string[] {
  const evaluate = [DOCKET, 'evaluate', '--pack', PACK, '--facts', FACTS];
  const oneLineDir = mkdtempSync(join(tmpdir(), 'docket-cli-start-one-line-'));
  const oneLine = join(oneLineDir, 'one.jsonl');
  writeFileSync(oneLine, `{"facts":${readFileSync(FACTS, 'utf8').trim()}}\n`);
  const batchOfOne = [DOCKET, 'evaluate', '--pack', PACK, '--batch', oneLine];
  const noCache = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
  const old = olderNode();
  const baseline = process.env.BENCH_CLI_BASELINE;
  const before: Timing[] = [];
  const beforeBatch: Timing[] = [];
  const oldEnv = { ...process.env, PATH: '/usr/bin:/bin' };
  timed(process.execPath, evaluate); // fills the compile cache if it is empty
  const bare: Timing[] = [];
  const cli: Timing[] = [];
  const batchCli: Timing[] = [];
  const cliNoCache: Timing[] = [];
  const oldBare: Timing[] = [];
  const oldCli: Timing[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(timed(process.execPath, ['-e', '0']));
    cli.push(timed(process.execPath, evaluate));
    batchCli.push(timed(process.execPath, batchOfOne));
    cliNoCache.push(timed(process.execPath, evaluate, noCache));
    if (baseline !== undefined) {
      before.push(timed(process.execPath, [baseline, ...evaluate.slice(1)]));
      beforeBatch.push(timed(process.execPath, [baseline, ...batchOfOne.slice(1)]));
    }
    if (old !== undefined) {
      oldBare.push(timed(old, ['-e', '0'], oldEnv));
      oldCli.push(timed(old, evaluate, oldEnv));
    }
  }
  const b = median(bare.map((t) => t.wall));
  const bc = median(bare.map((t) => t.cpu));
  const row = (label: string, ts: readonly Timing[]): string => {
    const wall = ts.map((t) => t.wall);
    const cpu = median(ts.map((t) => t.cpu));
    return `  ${label.padEnd(46)}: ${ms(wall)} wall (${spread(wall)}) → ${(median(wall) / b).toFixed(2)}× node -e 0; CPU ${cpu.toFixed(0)} ms → ${(cpu / bc).toFixed(2)}×`;
  };
  const out = [
    `start-up, ${ROUNDS} interleaved rounds, medians (Node ${process.version}; ${process.execPath}); goal ≤ 3× node -e 0`,
    row('node -e 0', bare),
    row('docket evaluate, one facts document', cli),
    row('docket evaluate --batch, a one-line file', batchCli),
    row('the same, compile cache off', cliNoCache),
  ];
  if (baseline !== undefined) {
    out.push(row(`baseline ${baseline}`, before));
    out.push(row('the same baseline, --batch of one line', beforeBatch));
  }
  rmSync(oneLineDir, { recursive: true, force: true });
  if (old !== undefined) {
    out.push(row(`started by ${old} (re-run on Node 24)`, oldCli));
    out.push(row(`${old} -e 0`, oldBare));
  }
  return out;
}

console.log([`cli start bench — ${COMMAND}`, ...startUp()].join('\n'));
