/**
 * `docket local start` / `docket local stop` (the pipeline owner's CLI calls these): run the local stack as a
 * detached background process whose state lives in `.docket/local/stack.json` (endpoint, pid, resources) and whose
 * output goes to `.docket/local/stack.log`. Also startStackProcess: the same process attached to the caller
 * (benchmarks), so the emulators get a core of their own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HandlerBinding, ServeConfig, StackState } from './serve.js';

export type { HandlerBinding, StackState } from './serve.js';

export interface DaemonOptions {
  /** Directory of stack.json and stack.log (default `.docket/local` under the working directory). */
  readonly stateDir?: string;
  /** Edge port (default 4566, LocalStack's; 0 = ephemeral). */
  readonly port?: number;
  /** LevelDB directory so tables survive a restart (default: `<stateDir>/dynamodb`); null = in memory. */
  readonly dataDir?: string | null;
  readonly stage?: string;
  readonly region?: string;
  /** Run the event-source poller in the stack process with these handler modules (e.g. dist/functions/evaluate.js). */
  readonly handlers?: readonly HandlerBinding[];
  /** Extra environment for the stack process (and so for the handlers it runs). */
  readonly env?: Readonly<Record<string, string>>;
  /** The compiled serve.js to run (default: the one beside this module). */
  readonly entry?: string;
  /** How long to wait for the stack to report ready (default 60 s). */
  readonly readyTimeoutMs?: number;
}

export class LocalStackStartError extends Error {
  readonly code = 'local-stack-start-failed';
}

export function defaultStateDir(cwd: string = process.cwd()): string {
  return join(cwd, '.docket', 'local');
}

const stateFileOf = (dir: string): string => join(dir, 'stack.json');
const logFileOf = (dir: string): string => join(dir, 'stack.log');

function defaultEntry(): string {
  return fileURLToPath(new URL('./serve.js', import.meta.url));
}

/** The running stack's state, or null when there is none (no file, or its process is gone: a stale file is removed). */
export function readStackState(stateDir: string = defaultStateDir()): StackState | null {
  const file = stateFileOf(stateDir);
  if (!existsSync(file)) return null;
  let state: StackState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as StackState;
  } catch {
    return null;
  }
  if (!isAlive(state.pid)) {
    rmSync(file, { force: true });
    return null;
  }
  return state;
}

/**
 * Starts the stack detached and returns its state once it is ready; when one is already running for this state
 * directory, returns that one instead of starting a second.
 */
export async function startDaemon(options: DaemonOptions = {}): Promise<StackState & { alreadyRunning: boolean }> {
  const stateDir = resolve(options.stateDir ?? defaultStateDir());
  const running = readStackState(stateDir);
  if (running) return { ...running, alreadyRunning: true };
  mkdirSync(stateDir, { recursive: true });
  const logFile = logFileOf(stateDir);
  const out = openSync(logFile, 'a');
  const child = spawnServe(
    {
      port: options.port ?? 4566,
      dataDir: options.dataDir === null ? undefined : resolve(options.dataDir ?? join(stateDir, 'dynamodb')),
      stage: options.stage,
      region: options.region,
      stateFile: stateFileOf(stateDir),
      handlers: options.handlers?.map((h) => ({ ...h, module: resolve(h.module) })),
    },
    options,
    { detached: true, stdio: ['ignore', out, out] },
  );
  closeSync(out);
  child.unref();
  const state = await waitForState(stateDir, child, options.readyTimeoutMs ?? 60_000, logFile);
  return { ...state, alreadyRunning: false };
}

/** Stops the stack of this state directory; resolves once its process has exited. */
export async function stopDaemon(
  options: { stateDir?: string; timeoutMs?: number } = {},
): Promise<{ stopped: boolean; pid?: number }> {
  const stateDir = resolve(options.stateDir ?? defaultStateDir());
  const state = readStackState(stateDir);
  if (!state) return { stopped: false };
  process.kill(state.pid, 'SIGTERM');
  const until = Date.now() + (options.timeoutMs ?? 15_000);
  while (isAlive(state.pid)) {
    if (Date.now() > until) {
      process.kill(state.pid, 'SIGKILL');
      break;
    }
    await sleep(50);
  }
  rmSync(stateFileOf(stateDir), { force: true });
  return { stopped: true, pid: state.pid };
}

/** The stack in a child process attached to this one (stopped with it); for benchmarks and tests. */
export async function startStackProcess(
  options: Omit<DaemonOptions, 'stateDir' | 'dataDir'> & { dataDir?: string },
): Promise<StackState & { stop(): Promise<void> }> {
  const child = spawnServe(
    {
      port: options.port ?? 0,
      dataDir: options.dataDir,
      stage: options.stage,
      region: options.region,
      handlers: options.handlers,
    },
    options,
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const state = await new Promise<StackState>((resolveState, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => reject(new LocalStackStartError('the stack process did not report ready in time')),
      options.readyTimeoutMs ?? 60_000,
    );
    child.stdout!.on('data', (c: Buffer) => {
      buffer += c.toString('utf8');
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolveState(JSON.parse(line) as StackState);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new LocalStackStartError(`the stack process exited with code ${code} before it was ready`));
    });
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    ...state,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function spawnServe(
  config: ServeConfig,
  options: DaemonOptions,
  spawnOptions: Parameters<typeof spawn>[2],
): ChildProcess {
  const entry = options.entry ?? defaultEntry();
  if (!existsSync(entry)) throw new LocalStackStartError(`${entry} does not exist (run npm run build first)`);
  return spawn(process.execPath, [entry, JSON.stringify(config)], {
    ...spawnOptions,
    env: { ...process.env, ...options.env },
  });
}

async function waitForState(
  stateDir: string,
  child: ChildProcess,
  timeoutMs: number,
  logFile: string,
): Promise<StackState> {
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

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
