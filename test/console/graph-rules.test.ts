/**
 * The pack rules that fired at each leaf of a graph-run entry (ADR 0371): a re-run of the archived request against
 * the published graph with traces, shown only when it gives the recorded run's exact text.
 */
import { describe, expect, it } from 'vitest';
import { graphRules, type GraphRulesFetchers } from '../../cli/console/graph-rules.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import type { SignedEntry } from '../../core/ledger/index.js';
import { graphRunEntry, PROJECT, PUBLISHED, ROOT_GRAPH } from '../ledger/graph-run-fixtures.js';
import { GRAPH_REQUEST } from './graph-ledger-files.js';

type GraphRunEntry = Extract<SignedEntry, { kind: 'graph-run' }>;
const entry = (over: Record<string, unknown> = {}) =>
  ({ ...graphRunEntry({ requestDigest: sha256Hex(GRAPH_REQUEST), ...over }), signature: '' }) as GraphRunEntry;

const fetchers = (o: Partial<GraphRulesFetchers> = {}): GraphRulesFetchers => ({
  requestBytes: (d) => Promise.resolve(d === sha256Hex(GRAPH_REQUEST) ? GRAPH_REQUEST : null),
  // Only the closed set the entry records, by its closure digest (ADR 0450).
  graph: (d) => Promise.resolve(d === PUBLISHED ? { bytes: ROOT_GRAPH, project: PROJECT } : null),
  ...o,
});

describe('graphRules', () => {
  it("names the rules that were true at each leaf of RFC 0022's run, with their definitions, in evaluation order", async () => {
    const v = await graphRules(entry(), fetchers());
    expect(v.known).toBe(true);
    if (!v.known) return;
    const fired = Object.fromEntries(v.leaves.map((l) => [l.instancePath, l.rules.map((r) => r.id)]));
    expect(fired).toEqual({
      '/contractor-sanctions/ofac-check': [],
      '/contractor-sanctions/pep-check': [],
      '/contractor-sanctions/composite-risk': [],
      '/vendor-sanctions/ofac-check': ['rule-cleared'],
      '/vendor-sanctions/pep-check': ['rule-domestic'],
      '/vendor-sanctions/composite-risk': ['rule-both-cleared'],
      'procurement-approval': [],
    });
    const pep = v.leaves.find((l) => l.instancePath === '/contractor-sanctions/pep-check')!;
    expect(pep.exceptions.map((x) => [x.id, x.yields])).toEqual([['exc-sanctioned-country', 'escalate']]);
    expect(v.leaves[3]!.rules[0]!.definition).toContain('"path": "/subject/legal-name"');
  });

  it('says why it is not known when the archive lost the request, or the graph is not published', async () => {
    expect(await graphRules(entry(), fetchers({ requestBytes: () => Promise.resolve(null) }))).toMatchObject({
      known: false,
      reason: expect.stringContaining('no longer holds the request'),
    });
    expect(await graphRules(entry(), fetchers({ graph: () => Promise.resolve(null) }))).toMatchObject({
      known: false,
      reason: expect.stringContaining('holds no published graph'),
    });
  });

  it('shows no trace when the re-run is another run than the recorded one (here: another budget)', async () => {
    const v = await graphRules(entry({ workBudget: 200_000 }), fetchers());
    expect(v).toMatchObject({ known: false, reason: expect.stringContaining('another run than the recorded one') });
  });
});
