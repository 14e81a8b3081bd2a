/**
 * docs/adr/0331-launcher-forwards-signals.md: when bin/docket.js re-runs itself on the project's Node 24 (started by
 * a Node older than 22.5), the child is the command: a SIGTERM or SIGINT sent to the launcher reaches the child, the
 * launcher ends as the child did (its exit status, or the same signal), and no child is left running.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, TRIAGE } from './helpers.js';

/** An older Node on this machine: DOCKET_OLD_NODE, or the system's /usr/bin/node when it is older than 22.5. */
function olderNode(): string | undefined {
  const candidate = process.env.DOCKET_OLD_NODE ?? '/usr/bin/node';
  if (!existsSync(candidate)) return undefined;
  const v = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  const [major = 0, minor = 0] = v.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 5) ? candidate : undefined;
}

const old = olderNode();
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
let running: number | undefined;
afterEach(() => {
  // A launcher that failed to pass the signal on leaves its child waiting on the pipe: end it here.
  if (running !== undefined && alive(running)) process.kill(running, 'SIGKILL');
  running = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Starts the launcher on the older Node as `docket evaluate --facts <fifo>`: the Node 24 child waits for a writer on
 * the named pipe (a pipe of this test's own would be closed when the launcher exits, ending the child for another
 * reason than the signal). Every Node process of the command records "pid version" (a preload through
 * NODE_OPTIONS). Resolves once the child is running.
 */
async function startWaitingCommand() {
  dir = mkdtempSync(join(tmpdir(), 'docket-launcher-'));
  const record = join(dir, 'pids');
  writeFileSync(
    join(dir, 'record.cjs'),
    `require('node:fs').appendFileSync(${JSON.stringify(record)}, process.pid + ' ' + process.versions.node + '\\n');\n`,
  );
  const fifo = join(dir, 'facts');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  const launcher = spawn(old!, [join(ROOT, 'bin', 'docket.js'), 'evaluate', '--pack', TRIAGE, '--facts', fifo], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: '/usr/bin:/bin', NODE_OPTIONS: `--require ${join(dir, 'record.cjs')}` },
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    launcher.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let child: number | undefined;
  for (let i = 0; i < 300 && child === undefined; i++) {
    await sleep(50);
    const lines = existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : [];
    const c = lines.map((l) => l.split(' ')).find(([pid, v]) => Number(pid) !== launcher.pid && v?.startsWith('24.'));
    if (c !== undefined) child = Number(c[0]);
  }
  if (child === undefined) throw new Error('the Node 24 child never started');
  running = child;
  // Give the child time to reach its read of the pipe (its signal handling is Node's default by then).
  await sleep(300);
  return { launcher, child, exited, fifo };
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await sleep(50);
  return !alive(pid);
}

describe.skipIf(old === undefined)('bin/docket.js re-run on Node 24 by an older Node', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`passes ${signal} on to its child and dies of the same signal, leaving no child running`, async () => {
      const { launcher, child, exited } = await startWaitingCommand();
      expect(alive(child)).toBe(true);
      launcher.kill(signal);
      const end = await exited;
      expect(await gone(child)).toBe(true);
      expect(end).toEqual({ code: null, signal });
    }, 30_000);
  }

  it("exits with the child's status when the child ends on its own", async () => {
    const { child, exited, fifo } = await startWaitingCommand();
    writeFileSync(fifo, 'not json'); // a facts document that is not JSON: evaluate's typed error, exit 2
    const end = await exited;
    expect(await gone(child)).toBe(true);
    expect(end).toEqual({ code: 2, signal: null });
  }, 30_000);
});
