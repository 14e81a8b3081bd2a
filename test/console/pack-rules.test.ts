/**
 * The entry page's pack section (ADR 0232) over the console server in stack mode, with the replay test world (the
 * real pipeline writing entries into an in-memory ledger, pack registry and request archive): the registered pack's
 * rules with their definitions and the ones that fired by the replayed §8.3 trace; a registry without the pack, or
 * with other bytes for its digest, and a purged request, each said plainly. Files mode has no registry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openFileSource, openStackSource } from '../../cli/console/source.js';
import type { PackRulesView } from '../../core/console-api/index.js';
import { BUILD, request, world, writePolicyFile, type World } from '../replay/world.js';
import { writeLedgerFiles } from './ledger-files.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-console-rules-'));
let w: World;
let digest: string;
let c: RunningConsole;

beforeAll(async () => {
  w = world({ logIds: ['t-0'] });
  digest = w.publish('vendor-onboarding-target.json');
  const facts = (score: string, sanctioned: boolean) =>
    `{"vendor":{"riskScore":"${score}","sanctioned":${sanctioned}}}`;
  // With the tax certificate present, so §8 reaches the rules (without it, step 5 blocks before them).
  const evidence = ',"evidence":{"tax-certificate":"present"}';
  await w.submit(request('low', `sha256:${digest}`, facts('10', false), evidence));
  await w.submit(request('both', `sha256:${digest}`, facts('10', true), evidence));
  await w.submit(request('purged', `sha256:${digest}`, facts('50', true), evidence));
  await w.submit(request('blocked', `sha256:${digest}`, facts('10', false)));
  const policyPath = writePolicyFile(w, join(dir, 'policy.json'));
  const source = await openStackSource({
    flags: {},
    policyPath,
    checkpointsPath: undefined,
    replayDeps: { open: () => ({ store: w.store, fetch: w.fetch, close: () => undefined }), buildDigest: () => BUILD },
  });
  c = await startConsoleServer({ source, host: '127.0.0.1', port: 0, distDir: dir });
});

afterAll(async () => {
  await c?.close();
  rmSync(dir, { recursive: true, force: true });
});

const rulesOf = async (url: string, requestId: string) =>
  (await (await fetch(new URL(`/api/pack-rules/${encodeURIComponent(requestId)}`, url))).json()) as PackRulesView;

describe("the entry page's pack rules", () => {
  it('lists the registered pack rules with their definitions and marks the one that fired', async () => {
    const v = await rulesOf(c.url, 'low');
    if (!v.registered) throw new Error(v.reason);
    expect(v.digest).toBe(digest);
    expect(v.rules.map((r) => [r.id, r.yields])).toEqual([
      ['onboard-low-risk', 'outcome onboard'],
      ['reject-sanctioned', 'outcome reject'],
    ]);
    expect(v.rules[0]?.definition).toContain('"/vendor/riskScore"');
    expect(v.fired).toEqual({
      known: true,
      replay: 'replay-match',
      terminatedAt: '9-outcome',
      rules: ['onboard-low-risk'],
      exceptions: [],
    });
  });

  it('marks every rule that fired when two did (a conflict)', async () => {
    const v = await rulesOf(c.url, 'both');
    expect(v.registered && v.fired).toEqual({
      known: true,
      replay: 'replay-match',
      terminatedAt: '8-unresolved',
      rules: ['onboard-low-risk', 'reject-sanctioned'],
      exceptions: [],
    });
  });

  it('marks none when §8 stopped before the rules (required evidence unknown)', async () => {
    const v = await rulesOf(c.url, 'blocked');
    expect(v.registered && v.fired).toEqual({
      known: true,
      replay: 'replay-match',
      terminatedAt: '5-blocked',
      rules: [],
      exceptions: [],
    });
  });

  it('still shows the rules, and says which fired is unknown, when the request was purged', async () => {
    for (const [d, bytes] of w.archive) if (new TextDecoder().decode(bytes).includes('"purged"')) w.archive.delete(d);
    const v = await rulesOf(c.url, 'purged');
    expect(v.registered).toBe(true);
    if (v.registered) {
      expect(v.fired.known).toBe(false);
      if (!v.fired.known) expect(v.fired.reason).toContain('request-purged');
    }
  });

  it('says so plainly when the registry holds other bytes for the digest, or none', async () => {
    const kept = w.packs.get(digest)!;
    try {
      w.packs.set(digest, new TextEncoder().encode('{"id":"forged","rules":[]}'));
      const other = await rulesOf(c.url, 'low');
      expect(other).toMatchObject({ registered: false });
      expect(!other.registered && other.reason).toContain('the registry holds other bytes');
      w.packs.delete(digest);
      const none = await rulesOf(c.url, 'low');
      expect(none).toEqual({ registered: false, reason: `the pack registry holds no pack sha256:${digest}` });
    } finally {
      w.packs.set(digest, kept);
    }
  });

  it('says files hold no pack registry, and 404s an unknown request', async () => {
    const files = writeLedgerFiles(['log-a'], 2);
    const f = await startConsoleServer({ source: await openFileSource(files), host: '127.0.0.1', port: 0 });
    try {
      const v = await rulesOf(f.url, 'log-a-req-0');
      expect(v).toMatchObject({ registered: false });
      expect(!v.registered && v.reason).toContain('no pack registry');
      expect((await fetch(new URL('/api/pack-rules/nope', f.url))).status).toBe(404);
    } finally {
      await f.close();
      rmSync(files.dir, { recursive: true, force: true });
    }
  });
});
