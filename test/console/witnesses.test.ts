/**
 * `docket console --witnesses` (ADR 0231): the overview's witness section judges each log's newest checkpoint against
 * the witness policy and reports the rollback / stale-anchor / unwitnessed-anchor findings exactly as
 * `docket verify --witnesses` does, over every witness corpus scenario that has a ledger; without a policy it says
 * none was given. The console is started by its command (files mode, port 0) and read over HTTP.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as consoleRun } from '../../cli/commands/console.js';
import { run as verifyRun } from '../../cli/commands/verify.js';
import { writeLedgerFiles } from './ledger-files.js';

const WITNESS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'witness');
const CODES = new Set(['rollback', 'stale-anchor', 'unwitnessed-anchor']);

interface WitnessView {
  policy: { quorum: number; witnesses: string[] } | null;
  logs?: { logId: string; newest: { treeSize: number; cosigners: string[] } | null; meetsPolicy: boolean }[];
  verdict?: { ok: true; findings: { code: string; logId: string }[] } | { ok: false; noVerdict: unknown };
}

/** Starts `docket console` with argv, hands its URL to use(), then stops it. */
async function withConsole<T>(argv: string[], use: (url: string) => Promise<T>): Promise<T> {
  const io = memoryIo();
  const stop = new AbortController();
  const running = consoleRun(['--port', '0', ...argv], io, stop.signal);
  let url: string | undefined;
  for (let i = 0; i < 200 && url === undefined; i++) {
    url = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(io.out())?.[1];
    if (url === undefined) {
      const exited = await Promise.race([running, new Promise((r) => setTimeout(() => r(null), 25))]);
      if (exited !== null) throw new Error(`docket console exited ${String(exited)}: ${io.err()}`);
    }
  }
  if (url === undefined) throw new Error(`docket console printed no URL: ${io.err()}`);
  try {
    return await use(url);
  } finally {
    stop.abort();
    expect(await running).toBe(0);
  }
}

const getJson = async <T>(url: string, path: string): Promise<T> =>
  (await (await fetch(new URL(path, url))).json()) as T;

describe('docket console --witnesses', () => {
  it('reports each witness corpus scenario exactly as docket verify --witnesses does, per log and in its findings', async () => {
    const scenarios = readdirSync(WITNESS).filter(
      (n) => existsSync(join(WITNESS, n, 'witness-policy.json')) && existsSync(join(WITNESS, n, 'ledger.jsonl')),
    );
    expect(scenarios.length).toBeGreaterThanOrEqual(5);
    const seen = new Set<string>();
    for (const name of scenarios) {
      const p = (f: string) => join(WITNESS, name, f);
      const expected = JSON.parse(readFileSync(p('expected.json'), 'utf8')) as { verify: { now: number } };
      const now = new Date(expected.verify.now * 1000).toISOString().replace('.000Z', 'Z');
      const files = [
        '--export',
        p('ledger.jsonl'),
        '--policy',
        p('policy.json'),
        '--checkpoints',
        p('checkpoints.json'),
      ];
      const witness = ['--witnesses', p('witness-policy.json'), '--cosigned', p('cosigned.json'), '--now', now];
      const io = memoryIo();
      await verifyRun([...files, ...witness], io);
      const verdict = JSON.parse(io.out()) as { findings: { code: string; logId: string }[] };
      const want = verdict.findings.filter((f) => CODES.has(f.code));
      for (const f of want) seen.add(f.code);
      const view = await withConsole([...files, ...witness], (url) => getJson<WitnessView>(url, '/api/witnesses'));
      expect(view.verdict, name).toEqual({ ok: true, findings: want });
      // A log meets the policy exactly when verify finds its newest checkpoint neither unwitnessed nor stale.
      for (const l of view.logs ?? []) {
        const judged = want.some((f) => f.logId === l.logId && f.code !== 'rollback');
        if (l.newest !== null) expect(l.meetsPolicy, `${name} ${l.logId}`).toBe(!judged);
      }
    }
    // The corpus exercises every witness finding, so each comparison above had something to compare.
    expect([...seen].sort()).toEqual(['rollback', 'stale-anchor', 'unwitnessed-anchor']);
  }, 120_000);

  it('names the cosigners of a witnessed newest checkpoint and the quorum it meets', async () => {
    const p = (f: string) => join(WITNESS, 'witnessed-honest', f);
    const expected = JSON.parse(readFileSync(p('expected.json'), 'utf8')) as { verify: { now: number } };
    const now = new Date(expected.verify.now * 1000).toISOString().replace('.000Z', 'Z');
    const argv = ['--export', p('ledger.jsonl'), '--policy', p('policy.json'), '--checkpoints', p('checkpoints.json')];
    argv.push('--witnesses', p('witness-policy.json'), '--cosigned', p('cosigned.json'), '--now', now);
    const view = await withConsole(argv, (url) => getJson<WitnessView>(url, '/api/witnesses'));
    expect(view.policy?.quorum).toBeGreaterThan(0);
    expect(view.logs?.length).toBeGreaterThan(0);
    for (const l of view.logs ?? []) {
      expect(l.meetsPolicy).toBe(true);
      expect(l.newest?.cosigners.length).toBeGreaterThanOrEqual(view.policy?.quorum ?? Infinity);
    }
  });

  it('says that no witness policy was given rather than implying a verdict', async () => {
    const files = writeLedgerFiles(['log-a'], 3);
    try {
      const argv = ['--export', files.exportPath, '--policy', files.policyPath, '--checkpoints', files.checkpointsPath];
      const [overview, view] = await withConsole(argv, async (url) => [
        await getJson<{ witnessPolicy: unknown }>(url, '/api/overview'),
        await getJson<WitnessView>(url, '/api/witnesses'),
      ]);
      expect(overview.witnessPolicy).toBeNull();
      expect(view).toEqual({ policy: null });
    } finally {
      rmSync(files.dir, { recursive: true, force: true });
    }
  });

  it('refuses --cosigned without --witnesses, and names an unreadable witness policy', async () => {
    expect(await consoleRun(['--cosigned', 'x.json'], memoryIo())).toBe(64);
    const io = memoryIo();
    expect(await consoleRun(['--export', 'x.jsonl', '--witnesses', '/nonexistent/w.json'], io)).toBe(66);
    expect(io.err()).toContain('witness-policy-unreadable');
  });
});
