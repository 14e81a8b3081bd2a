/**
 * The CLI's start-up: `docket evaluate` of one facts document and `--batch` of a one-line file, each next to a bare
 * `node -e 0` in interleaved rounds, wall and CPU time (docs/performance.md "CLI start-up", ADR 0332). Also with
 * Node's compile cache off, and started by an older Node (the launcher's re-run on Node 24, ADR 0110) when this
 * machine has one (/usr/bin/node < 22.5, or DOCKET_OLD_NODE). BENCH_CLI_ROUNDS (default 21) rounds;
 * BENCH_CLI_BASELINE=<another checkout's built bin/docket.js> times that build's two commands in the same rounds.
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
  const oldEnv = { ...process.env, PATH: '/usr/bin:/bin' };
  const node = (args: readonly string[], env?: NodeJS.ProcessEnv) => () => timed(process.execPath, args, env);
  /** Each row's label and the process it times, once per round in this order; `node -e 0` first, the ratios' base. */
  const rows: [string, () => Timing][] = [
    ['node -e 0', node(['-e', '0'])],
    ['docket evaluate, one facts document', node(evaluate)],
    ['docket evaluate --batch, a one-line file', node(batchOfOne)],
    ['the same, compile cache off', node(evaluate, noCache)],
  ];
  if (baseline !== undefined)
    rows.push(
      [`baseline ${baseline}`, node([baseline, ...evaluate.slice(1)])],
      ['the same baseline, --batch of one line', node([baseline, ...batchOfOne.slice(1)])],
    );
  if (old !== undefined)
    rows.push(
      [`started by ${old} (re-run on Node 24)`, () => timed(old, evaluate, oldEnv)],
      [`${old} -e 0`, () => timed(old, ['-e', '0'], oldEnv)],
    );
  timed(process.execPath, evaluate); // fills the compile cache if it is empty
  const times = rows.map((): Timing[] => []);
  for (let i = 0; i < ROUNDS; i++) rows.forEach(([, run], k) => times[k]!.push(run()));
  rmSync(oneLineDir, { recursive: true, force: true });
  const b = median(times[0]!.map((t) => t.wall));
  const bc = median(times[0]!.map((t) => t.cpu));
  const row = (label: string, ts: readonly Timing[]): string => {
    const wall = ts.map((t) => t.wall);
    const cpu = median(ts.map((t) => t.cpu));
    return `  ${label.padEnd(46)}: ${ms(wall)} wall (${spread(wall)}) → ${(median(wall) / b).toFixed(2)}× node -e 0; CPU ${cpu.toFixed(0)} ms → ${(cpu / bc).toFixed(2)}×`;
  };
  return [
    `start-up, ${ROUNDS} interleaved rounds, medians (Node ${process.version}; ${process.execPath}); goal ≤ 3× node -e 0`,
    ...rows.map(([label], k) => row(label, times[k]!)),
  ];
}

console.log([`cli start bench — ${COMMAND}`, ...startUp()].join('\n'));
