/**
 * The graph suite of the conformance corpus (conformance/graph/manifest.json) as vitest rows, plus checks of the
 * corpus itself: every refusal code of graph-semantics.md's output contract has a row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCorpus } from '../../conformance/runner.js';

const ROOT = join(import.meta.dirname, '..', '..');
const report = runCorpus({ root: ROOT, suite: 'graph' });

describe('the graph conformance suite', () => {
  it.each(report.results.map((r) => [r.id, r] as const))('%s', (_id, r) => {
    expect(r.actual).toBe(r.passed ? r.actual : r.expected);
    expect(r.passed).toBe(true);
  });

  it('has a row for every structural diagnostic and refusal code of the output contract', () => {
    const manifest = readFileSync(join(ROOT, 'conformance', 'graph', 'manifest.json'), 'utf8');
    for (const code of [
      'JPS-GRAPH-JSON',
      'JPS-GRAPH-VERSION',
      'JPS-GRAPH-SCHEMA',
      'JPS-GRAPH-NODE-PACK',
      'JPS-GRAPH-EDGE-ENDPOINT',
      'JPS-GRAPH-EDGE-SELF',
      'JPS-GRAPH-EDGE-DUPLICATE-FACT',
      'JPS-GRAPH-FACT-POINTER-DEPTH',
      'JPS-GRAPH-EDGE-FACT-OVERLAP',
      'JPS-GRAPH-EDGE-DUPLICATE-EVIDENCE',
      'JPS-GRAPH-RESULT-NODE',
      'JPS-GRAPH-CYCLE',
      'JPS-GRAPH-RESERVED-NODE-ID',
      'JPS-GRAPH-CALLER-EDGE-IN-SUBGRAPH',
      'JPS-GRAPH-EDGE-OUTPUT',
      'JPS-GRAPH-SUBGRAPH-INPUT-UNDECLARED',
      'JPS-GRAPH-REFERENCE-UNKNOWN',
      'JPS-GRAPH-REFERENCE-CYCLE',
      'JPS-GRAPH-DEPTH-LIMIT',
      'JPS-GRAPH-REFERENCE-DIGEST-MISMATCH',
      'JPS-GRAPH-REFERENCE-VERSION-MISMATCH',
      'JPS-GRAPH-NODE-BUDGET',
      'JPS-GRAPH-INPUTS-JSON',
      'JPS-GRAPH-INPUTS-SHAPE',
      'JPS-GRAPH-INPUTS-NODE',
      'JPS-GRAPH-INPUTS-MEMBER',
      'JPS-GRAPH-INPUTS-EVIDENCE',
      'JPS-GRAPH-INPUTS-SUBGRAPH-NODE',
      'JPS-GRAPH-FACT-CONFLICT',
      'JPS-GRAPH-EVIDENCE-CONFLICT',
      'JPS-GRAPH-NODE-PACK-READ',
      'JPS-GRAPH-EDGE-EVIDENCE-UNDECLARED',
    ])
      expect(manifest, code).toContain(`"${code}"`);
  });
});
