/**
 * `docket local start` / `docket local stop` (cli/commands/local.ts calls these): run the local stack as a
 * detached background process whose state lives in `.docket/local/stack.json` (endpoint, pid, resources) and whose
 * output goes to `.docket/local/stack.log`.
 *
 * A stack is running only when its state file names a live process AND its endpoint answers (ADR 0112): a state
 * file left by a crash, or a process that no longer serves, is a dead stack, cleaned up and never reported running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { LocalStackOptions } from './launcher.js';
import type { HandlerBinding, ServeConfig, StackState, StopReport } from './serve.js';

export type { HandlerBinding, StackState, StopReport } from './serve.js';
export { pipelineHandlers, type PipelineModules } from './pipeline-handlers.js';

export interface DaemonOptions extends Pick<LocalStackOptions, 'stage' | 'region' | 'draftFeatures'> {
  /** Directory of stack.json and stack.log (default `.docket/local` under the working directory). */
  readonly stateDir?: string;
  /** Edge port (default 4566, LocalStack's; 0 = ephemeral). */
  readonly port?: number;
  /**
   * Where tables (`dynamodb/`, LevelDB) and queues, topics and S3 objects (`queues/`, SQLite) survive a stop, a crash
   * and a reboot (default: the state directory); null = everything in memory.
   */
  readonly dataDir?: string | null;
  /** How long `stop` lets in-flight invocations finish, seconds (default 10). */
  readonly drainSeconds?: number;
  /** Run the event-source poller in the stack process with these handler modules (e.g. dist/functions/evaluate.js). */
  readonly handlers?: readonly HandlerBinding[];
  /**
   * Instances of the functions (worker threads) the stack runs; default: DOCKET_FUNCTION_INSTANCES in the stack's
   * environment, else localstack/function-instances.ts's default (ADR 0259).
   */
  readonly functionInstances?: number;
  /** Extra environment for the stack process (and so for the handlers it runs). */
  readonly env?: Readonly<Record<string, string>>;
  /** The compiled serve.js to run (default: the one beside this module). */
  readonly entry?: string;
}

export class LocalStackStartError extends Error {
  readonly code = 'local-stack-start-failed';
}

export function defaultStateDir(cwd: string = process.cwd()): string {
  return join(cwd, '.docket', 'local');
}

const stateFileOf = (dir: string): string => join(dir, 'stack.json');
const stopReportOf = (dir: string): string => join(dir, 'last-stop.json');

/** A JSON file this module wrote, or null when there is none or it does not parse. */
function jsonFile<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** The running stack's state, or null when there is none (no file, or its process is gone: a stale file is removed). */
export function readStackState(stateDir: string = defaultStateDir()): StackState | null {
  const file = stateFileOf(stateDir);
  const state = jsonFile<StackState>(file);
  if (state === null || isAlive(state.pid)) return state;
  rmSync(file, { force: true });
  return null;
}

export type StackProbe =
  | { readonly status: 'none' }
  | { readonly status: 'running'; readonly state: StackState }
  /** A state file whose process is gone or whose endpoint does not answer; `cleaned` says what was done about it. */
  | { readonly status: 'dead'; readonly state: StackState; readonly cleaned: string };

/**
 * Whether this state directory's stack really runs: its process is alive and its endpoint answers a health check.
 * A dead stack is cleaned up here: its state file removed and, when its process still exists (wedged, or dying)
 * and is this project's stack process, that process killed, so the port and the data directory are free again.
 */
export async function probeStack(stateDir: string = defaultStateDir()): Promise<StackProbe> {
  const file = stateFileOf(stateDir);
  const state = jsonFile<StackState>(file);
  if (state === null) {
    rmSync(file, { force: true });
    return { status: 'none' };
  }
  const alive = isAlive(state.pid);
  if (alive && (await answers(state.endpoint))) return { status: 'running', state };
  let cleaned = 'its process had exited';
  if (alive && isStackProcess(state.pid)) {
    process.kill(state.pid, 'SIGKILL');
    const until = Date.now() + 5_000;
    while (isAlive(state.pid) && Date.now() < until) await sleep(25);
    cleaned = `its process (pid ${state.pid}) no longer answered and was killed`;
  } else if (alive) cleaned = `pid ${state.pid} belongs to another program now`;
  rmSync(file, { force: true });
  return { status: 'dead', state, cleaned };
}

/**
 * Starts the stack detached and returns its state once it is ready; when one is already running for this state
 * directory, returns that one instead of starting a second. A dead stack (a crash) is cleaned up first and
 * reported in `recovered`; its data directory is reused, so nothing it had accepted is lost.
 */
export async function startDaemon(
  options: DaemonOptions = {},
): Promise<StackState & { alreadyRunning: boolean; recovered?: string }> {
  const stateDir = resolve(options.stateDir ?? defaultStateDir());
  const probe = await probeStack(stateDir);
  if (probe.status === 'running') return { ...probe.state, alreadyRunning: true };
  const recovered = probe.status === 'dead' ? `pid ${probe.state.pid}: ${probe.cleaned}` : undefined;
  mkdirSync(stateDir, { recursive: true });
  const logFile = join(stateDir, 'stack.log');
  const entry = options.entry ?? fileURLToPath(new URL('./serve.js', import.meta.url));
  if (!existsSync(entry)) throw new LocalStackStartError(`${entry} does not exist (run npm run build first)`);
  const out = openSync(logFile, 'a');
  const config: ServeConfig = {
    port: options.port ?? 4566,
    dataDir: options.dataDir === null ? undefined : resolve(options.dataDir ?? stateDir),
    stage: options.stage,
    region: options.region,
    ...(options.draftFeatures !== undefined && options.draftFeatures.length > 0
      ? { draftFeatures: [...options.draftFeatures] }
      : {}),
    stateFile: stateFileOf(stateDir),
    stopReportFile: stopReportOf(stateDir),
    ...(options.drainSeconds !== undefined ? { drainSeconds: options.drainSeconds } : {}),
    ...(options.functionInstances !== undefined ? { functionInstances: options.functionInstances } : {}),
    handlers: options.handlers?.map((h) => ({ ...h, module: resolve(h.module) })),
  };
  const child = spawn(process.execPath, [entry, JSON.stringify(config)], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...options.env },
  });
  closeSync(out);
  child.unref();
  const state = await waitForState(stateDir, child, logFile);
  return { ...state, alreadyRunning: false, ...(recovered ? { recovered } : {}) };
}

export type StopResult =
  | { readonly stopped: false; readonly dead?: string }
  /** `report`: what the stack counted on its queues after draining (absent when it had to be killed). */
  | { readonly stopped: true; readonly pid: number; readonly report?: StopReport; readonly killed: boolean };

/**
 * Stops the stack of this state directory gracefully (it drains, counts its queues, stops) and resolves once its
 * process has exited; after `timeoutMs` (default 30 s: the drain bound and then some) it is killed.
 */
export async function stopDaemon(options: { stateDir?: string; timeoutMs?: number } = {}): Promise<StopResult> {
  const stateDir = resolve(options.stateDir ?? defaultStateDir());
  const probe = await probeStack(stateDir);
  if (probe.status === 'none') return { stopped: false };
  if (probe.status === 'dead') return { stopped: false, dead: `pid ${probe.state.pid}: ${probe.cleaned}` };
  const state = probe.state;
  rmSync(stopReportOf(stateDir), { force: true });
  process.kill(state.pid, 'SIGTERM');
  const until = Date.now() + (options.timeoutMs ?? 30_000);
  let killed = false;
  while (isAlive(state.pid)) {
    if (Date.now() > until) {
      process.kill(state.pid, 'SIGKILL');
      killed = true;
      break;
    }
    await sleep(50);
  }
  rmSync(stateFileOf(stateDir), { force: true });
  const report = readStopReport(stateDir);
  return { stopped: true, pid: state.pid, killed, ...(report && report.pid === state.pid ? { report } : {}) };
}

/** The report the last graceful stop left, or null. */
export function readStopReport(stateDir: string = defaultStateDir()): StopReport | null {
  return jsonFile<StopReport>(stopReportOf(stateDir));
}

/** The stack's state once its process has written it; it gets a minute. */
async function waitForState(stateDir: string, child: ChildProcess, logFile: string): Promise<StackState> {
  const timeoutMs = 60_000;
  let exitCode: number | null = null;
  child.once('exit', (code) => {
    exitCode = code ?? -1;
  });
  const until = Date.now() + timeoutMs;
  for (;;) {
    const state = readStackState(stateDir);
    if (state && state.pid === child.pid) return state;
    if (exitCode !== null)
      throw new LocalStackStartError(
        `the local stack exited (code ${exitCode}) before it was ready:\n${tail(logFile)}`,
      );
    if (Date.now() > until) {
      if (child.pid) process.kill(child.pid, 'SIGTERM');
      throw new LocalStackStartError(`the local stack was not ready within ${timeoutMs} ms:\n${tail(logFile)}`);
    }
    await sleep(50);
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process its parent has not reaped yet still takes signals: it is dead all the same.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): trust the signal
  }
}

/** Whether pid runs this project's stack entry: a reused pid must never be killed (false where /proc is absent). */
function isStackProcess(pid: number): boolean {
  try {
    return /serve\.js/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The edge's own health check answers: three tries of two seconds each, so a live stack on a saturated machine (its
 * event loop busy with a burst) is not mistaken for a dead one and killed.
 */
async function answers(endpoint: string): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) if (await answersOnce(endpoint, 2_000)) return true;
  return false;
}

function answersOnce(endpoint: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const req = http.get(`${endpoint}/_localstack/health`, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolveAnswer(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolveAnswer(false));
  });
}
