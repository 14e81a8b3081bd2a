/**
 * Graph runs over the wire (ADR 0360, ADR 0361), on two local stacks started here on port 0: one deployed with the
 * draft feature judgment-graphs and a route queue for the sanctions officer, one without. The procurement-triage
 * example (a root graph using the sanctions-screening subgraph twice) is published with `docket publish --config
 * --graph`; a docket.graph-request/1 is put on the intake queue as a requester would write it. Checked: exactly one
 * graph-run entry whose run is byte for byte what `docket graph evaluate` prints; the subgraph leaf's handoff on its
 * route queue with its target unchanged and its instance path beside it, verifying as `docket handoffs` verifies;
 * `docket verify` and `docket replay` ok under a policy permitting the feature, verify reporting it under one that
 * does not; the deployment without the opt-in records graphs-not-enabled.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as publish } from '../../cli/commands/publish.js';
import { run as graph } from '../../cli/commands/graph.js';
import { run as replay } from '../../cli/commands/replay.js';
import { run as handoffs } from '../../cli/commands/handoffs.js';
import { GRAPH_REQUEST_FORMAT } from '../../core/admission/index.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';
import { verifyHandoff } from '../../core/pipeline/handoff-verdict.js';
import { STAGE_PRESETS } from '../../infra/config.js';
import { trustPolicyDocument } from '../../stack/local-files.js';
import { verifyUnder } from './verify-under.js';
import { recordedEntry, stackFlags, startE2e, type E2eWorld } from './harness.js';

/** Where `docket handoffs` remembers what it printed: a file of this test's own, never the working directory's. */
const SEEN = ['--seen', join(mkdtempSync(join(tmpdir(), 'docket-seen-')), 'handoffs-seen.json')];

const G = 'judgment-graphs';
const EXAMPLE = join(process.cwd(), 'examples', 'graphs', 'procurement-triage');
const JPACK = join(EXAMPLE, 'jpack.json');
const ROOT = join(EXAMPLE, 'graphs', 'procurement-triage.graph.json');
const INPUTS = readFileSync(join(EXAMPLE, 'inputs.json'), 'utf8').trim();
const ALIAS = 'https://example.com/graphs/procurement-triage@0.1.0';
const OFFICER = { kind: 'human-role', name: 'Sanctions Compliance Officer' } as const;
const BUDGET = 100_000;
const dir = mkdtempSync(join(tmpdir(), 'docket-graph-e2e-'));
let on: E2eWorld;
let off: E2eWorld;

const graphRequest = (id: string, ref = ALIAS) =>
  `{"format":"${GRAPH_REQUEST_FORMAT}","requestId":"${id}","graph":"${ref}","workBudget":${BUDGET},"inputs":${INPUTS}}`;

beforeAll(async () => {
  const officer = STAGE_PRESETS.local?.routes?.find((r) => r.kind === OFFICER.kind && r.name === OFFICER.name);
  if (officer?.queue !== 'sanctions') throw new Error('the local stage no longer routes the officer to sanctions');
  [on, off] = await Promise.all([
    startE2e({
      stage: 'graphs',
      config: {
        draftFeatures: [G],
        // The local stage's routes, which send the Sanctions Compliance Officer to `sanctions` (infra/config.ts).
        routes: [...(STAGE_PRESETS.local?.routes ?? [])],
      },
    }),
    startE2e({ stage: 'nographs' }),
  ]);
  const io = memoryIo();
  expect(await publish(['--config', JPACK, '--graph', ROOT, ...stackFlags(on, 'graphs')], io)).toBe(0);
}, 180_000);
afterAll(async () => {
  await Promise.all([on?.stop(), off?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const permitting = () =>
  trustPolicyDocument({
    keys: on.keys,
    checkpointKey: on.checkpointKeys,
    logIds: JSON.parse(on.env.LOG_IDS!) as string[],
    environment: 'graphs',
    table: on.env.LEDGER_TABLE!,
    evaluatorBuilds: ['e'.repeat(64)],
    draftFeatures: [G],
  });

describe('a graph request over the wire', () => {
  let entry: SignedEntry;

  it('is recorded as exactly one graph-run entry whose run is what docket graph evaluate prints', async () => {
    const r = await recordedEntry(on, 'graph-e2e-1', graphRequest('graph-e2e-1'));
    entry = r.entry;
    expect(entry.kind).toBe('graph-run');
    if (entry.kind !== 'graph-run') return;
    expect(entry.format).toBe('docket.ledger-entry/3');
    const io = memoryIo();
    writeFileSync(join(dir, 'inputs.json'), INPUTS);
    const args = ['evaluate', '--config', JPACK, '--graph', ROOT, '--inputs', join(dir, 'inputs.json')];
    expect(await graph([...args, '--work-budget', String(BUDGET)], io)).toBe(0);
    expect(entry.run).toBe(io.out().trimEnd());
    const run = JSON.parse(entry.run) as { headline: { node: string; disposition: { kind: string } } };
    expect(run.headline.node).toBe('procurement-approval');
    // The same bytes again (a redelivery or a retry) are the same entry, and no other entry names the request.
    const again = await recordedEntry(on, 'graph-e2e-1', graphRequest('graph-e2e-1'));
    expect(again.body).toBe(r.body);
    let count = 0;
    for (const logId of JSON.parse(on.env.LOG_IDS!) as string[])
      for await (const s of on.store.readEntries(logId, 0, 1_000))
        if (s.projection.requestId === 'graph-e2e-1') count++;
    expect(count).toBe(1);
  });

  it('puts the subgraph leaf’s handoff on its route queue, target unchanged and instance path beside it, and docket handoffs verifies it', async () => {
    writeFileSync(join(dir, 'handoff-policy.json'), permitting());
    const args = ['--route', 'sanctions', '--policy', join(dir, 'handoff-policy.json'), '--routes', on.routesPath];
    let lines: Record<string, unknown>[] = [];
    for (let i = 0; i < 20 && lines.length === 0; i++) {
      const io = memoryIo();
      expect(
        await handoffs([...args, '--json', ...SEEN, '--max', '10', '--wait', '1', ...stackFlags(on, 'graphs')], io),
      ).toBe(0);
      lines = io
        .out()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      verified: true,
      requestId: 'graph-e2e-1',
      target: OFFICER,
      instancePath: '/contractor-sanctions/ofac-check',
      node: 'ofac-check',
      shape: 'target',
      destination: 'configured',
    });
    // A consumer can re-check the message bytes on its own.
    const policy = readTrustPolicy(new TextEncoder().encode(permitting()));
    if (!policy.ok) throw new Error(policy.error.detail);
    const v = verifyHandoff(new TextEncoder().encode(lines[0]!.message as string), policy.value, {
      expectedTargets: [OFFICER],
    });
    expect(v.ok ? 'ok' : `${v.reason}: ${v.detail}`).toBe('ok');
  });

  it('docket verify is ok under a policy permitting judgment-graphs and reports it under one that does not', async () => {
    const ok = await verifyUnder(on, { stage: 'graphs', dir, checkpointPolicy: permitting(), policy: permitting() });
    expect(ok).toMatchObject({ exitCode: 0, verdict: { ok: true, findings: [] } });
    const forbidding = await verifyUnder(on, {
      stage: 'graphs',
      dir,
      checkpointPolicy: permitting(),
      policy: on.policyText,
    });
    expect(forbidding.exitCode).toBe(1);
    expect(forbidding.verdict.findings.map((f) => f.code)).toContain('draft-features-not-allowed');
  });

  it('docket replay re-runs the whole graph and matches byte for byte', async () => {
    writeFileSync(join(dir, 'replay-policy.json'), permitting());
    const io = memoryIo();
    const code = await replay(
      ['--request', 'graph-e2e-1', '--policy', join(dir, 'replay-policy.json'), ...stackFlags(on, 'graphs')],
      io,
    );
    const lines = io
      .out()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ requestId: 'graph-e2e-1', kind: 'graph-run', result: 'replay-match' });
    expect(code).toBe(0);
  });
});

describe('a deployment without the opt-in', () => {
  it('records the graph request as the admission refusal graphs-not-enabled', async () => {
    const { entry } = await recordedEntry(off, 'graph-off-1', graphRequest('graph-off-1'));
    expect(entry.kind).toBe('admission-refusal');
    if (entry.kind === 'admission-refusal') expect(entry.refusal.code).toBe('graphs-not-enabled');
  });
});
