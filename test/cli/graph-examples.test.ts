/**
 * The graph projects under examples/graphs/ give, through `docket graph validate|evaluate`, the results their READMEs
 * document. The expectations were worked out by hand from the packs (Core §§7–8) and graph-semantics.md (A2, A3,
 * B2, B6), not copied from a run.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, EX } from './helpers.js';

interface Leaf {
  instancePath: string;
  disposition: { kind: string; outcomeId?: string; reasons: string[]; handoff: { state: string } };
}
interface Run {
  status: string;
  headline: { node: string; disposition: Leaf['disposition'] };
  handoffs: { originatingNode: string; triggeredBy: string[]; target?: { kind: string; name: string } }[];
  nodes: Leaf[];
  subgraphs: { instancePath: string; digest: string }[];
}

const VENDOR = join(EX, 'graphs', 'vendor-onboarding');
const RFC = join(EX, 'graphs', 'procurement-triage');

async function evaluate(project: string, graph: string, inputs: string): Promise<Run> {
  const r = await cli([
    'graph',
    'evaluate',
    '--config',
    join(project, 'jpack.json'),
    '--graph',
    join(project, 'graphs', graph),
    '--inputs',
    join(project, inputs),
  ]);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as Run;
}

/** "path kind outcome-or-reasons" per leaf, in evaluation order: short enough to read against the README. */
const leaves = (run: Run): string[] =>
  run.nodes.map(
    (n) =>
      `${n.instancePath} ${n.disposition.kind} ${n.disposition.outcomeId ?? n.disposition.reasons.join(',')}${n.disposition.handoff.state === 'requested' ? ' ⚑' : ''}`,
  );

const vendor = (inputs: string) => evaluate(VENDOR, 'vendor-onboarding.graph.json', `inputs/${inputs}.json`);
const SANCTIONS_DIGEST = `sha256:${createHash('sha256')
  .update(readFileSync(join(VENDOR, 'graphs', 'sanctions-screening.graph.json')))
  .digest('hex')}`;

describe('examples/graphs/vendor-onboarding', () => {
  it('validates with no diagnostic', async () => {
    const r = await cli([
      'graph',
      'validate',
      '--config',
      join(VENDOR, 'jpack.json'),
      '--graph',
      join(VENDOR, 'graphs', 'vendor-onboarding.graph.json'),
    ]);
    expect([r.code, r.out]).toEqual([0, '{"status":"valid","diagnostics":[]}\n']);
  });

  it('runs the one sanctions-screening subgraph twice, both instances pinned to the same bytes', async () => {
    const run = await vendor('clean-vendor');
    expect(run.subgraphs.map((s) => [s.instancePath, s.digest])).toEqual([
      ['/owner-screening', SANCTIONS_DIGEST],
      ['/vendor-screening', SANCTIONS_DIGEST],
    ]);
  });

  it('onboards a clean vendor with a clean beneficial owner and sound finances, with no handoff', async () => {
    const run = await vendor('clean-vendor');
    expect(run.headline).toEqual({
      node: 'onboarding',
      disposition: { handoff: { state: 'none' }, kind: 'outcome', outcomeId: 'onboard', reasons: [] },
    });
    expect(run.handoffs).toEqual([]);
    expect(leaves(run)).toEqual([
      'financial-standing outcome sound',
      '/owner-screening/adverse-media outcome clear',
      '/owner-screening/watchlist outcome clear',
      '/owner-screening/verdict outcome cleared',
      '/vendor-screening/adverse-media outcome clear',
      '/vendor-screening/watchlist outcome clear',
      '/vendor-screening/verdict outcome cleared',
      'onboarding outcome onboard',
    ]);
  });

  it('rejects a vendor whose beneficial owner is on a watchlist, though the vendor itself is clean', async () => {
    const run = await vendor('owner-on-watchlist');
    expect(run.headline.disposition).toEqual({
      handoff: { state: 'none' },
      kind: 'outcome',
      outcomeId: 'reject',
      reasons: [],
    });
    expect(leaves(run)).toContain('/owner-screening/watchlist outcome match');
    expect(leaves(run)).toContain('/owner-screening/verdict outcome rejected');
    expect(leaves(run)).toContain('/vendor-screening/verdict outcome cleared');
  });

  it("hands a missing owner screening report to the Sanctions Compliance Officer from inside the owner's instance, and the decision to Vendor Risk", async () => {
    const run = await vendor('owner-report-missing');
    expect(run.headline.disposition).toEqual({
      handoff: { state: 'requested', triggeredBy: ['missing-required-evidence'] },
      kind: 'unresolved',
      reasons: ['missing-required-evidence'],
    });
    expect(run.handoffs).toEqual([
      {
        originatingNode: '/owner-screening/watchlist',
        triggeredBy: ['missing-required-evidence'],
        target: { kind: 'human-role', name: 'Sanctions Compliance Officer' },
      },
      {
        originatingNode: 'onboarding',
        triggeredBy: ['missing-required-evidence'],
        target: { kind: 'queue', name: 'Vendor Risk' },
      },
    ]);
    expect(leaves(run)).toContain('/owner-screening/verdict unresolved no-match');
  });

  it('sends a vendor with adverse media and weak finances to Vendor Risk as no-match', async () => {
    const run = await vendor('vendor-media-review');
    expect(leaves(run)).toEqual([
      'financial-standing outcome weak',
      '/owner-screening/adverse-media outcome clear',
      '/owner-screening/watchlist outcome clear',
      '/owner-screening/verdict outcome cleared',
      '/vendor-screening/adverse-media outcome review',
      '/vendor-screening/watchlist outcome clear',
      '/vendor-screening/verdict outcome enhanced-due-diligence',
      'onboarding unresolved no-match ⚑',
    ]);
    expect(run.handoffs).toEqual([
      { originatingNode: 'onboarding', triggeredBy: ['no-match'], target: { kind: 'queue', name: 'Vendor Risk' } },
    ]);
  });
});

describe("examples/graphs/procurement-triage (RFC 0022's worked example)", () => {
  it("reproduces the RFC's published subgraph digest and its headline, with the officer's target unchanged", async () => {
    const run = await evaluate(RFC, 'procurement-triage.graph.json', 'inputs.json');
    expect(new Set(run.subgraphs.map((s) => s.digest))).toEqual(
      new Set(['sha256:47e7c8483de7dc1f8d764c50b1d83c3048bf230e4c5d5ddb228ebcb965d85406']),
    );
    expect(run.headline).toEqual({
      node: 'procurement-approval',
      disposition: { handoff: { state: 'none' }, kind: 'unresolved', reasons: ['no-match'] },
    });
    expect(run.handoffs[0]).toEqual({
      originatingNode: '/contractor-sanctions/ofac-check',
      triggeredBy: ['missing-required-evidence'],
      target: { kind: 'human-role', name: 'Sanctions Compliance Officer' },
    });
    expect(leaves(run)).toEqual([
      '/contractor-sanctions/ofac-check unresolved missing-required-evidence ⚑',
      '/contractor-sanctions/pep-check unresolved exception-escalation ⚑',
      '/contractor-sanctions/composite-risk unresolved no-match',
      '/vendor-sanctions/ofac-check outcome cleared',
      '/vendor-sanctions/pep-check outcome cleared',
      '/vendor-sanctions/composite-risk outcome cleared',
      'procurement-approval unresolved no-match',
    ]);
  });
});
