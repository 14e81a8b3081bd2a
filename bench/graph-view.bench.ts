/**
 * The console's graph drawing (core/graph-view, ADR 0341) on the largest run a graph may have: 256 leaves, here 16
 * subgraph instances of 16 chained nodes each (k × m = 256, B5) feeding one root node; next to JSON.parse of the same
 * result text, which the page does anyway, in the same run.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/graph-view.bench.js
 *
 * A drawing = readGraphRunView + layoutGraphRun + graphSvg + svgMarkup. Rounds alternate; figures are medians.
 */
import { graphSvg, layoutGraphRun, readGraphRunView, svgMarkup } from '../core/graph-view/index.js';
import { median, secondsOf } from './support/timing.js';

const COMMAND = 'npx tsc -p tsconfig.build.json && node dist/bench/graph-view.bench.js';
const disposition = (i: number) =>
  i % 3 === 0
    ? { handoff: { state: 'none' }, kind: 'outcome', outcomeId: 'cleared', reasons: [] }
    : { handoff: { state: 'requested', triggeredBy: ['no-match'] }, kind: 'unresolved', reasons: ['no-match'] };

/** A deterministic 256-leaf result object in the output contract's shape. */
function bigRun(): unknown {
  const nodes: unknown[] = [];
  const subgraphs: unknown[] = [];
  for (let s = 0; s < 16; s++) {
    const inst = `i${String(s).padStart(2, '0')}`;
    subgraphs.push({
      instancePath: `/${inst}`,
      subgraph: 'chain',
      graphId: 'https://example.com/graphs/chain',
      graphVersion: '1.0.0',
      digest: `sha256:${'c'.repeat(64)}`,
      factFeeds: [{ from: 'caller', pointer: '/x', injected: true, value: s }],
      evidenceFeeds: [],
      outputs: { out: disposition(s) },
    });
    for (let n = 0; n < 16; n++) {
      const id = `n${String(n).padStart(2, '0')}`;
      const from = n === 0 ? 'input:/x' : `n${String(n - 1).padStart(2, '0')}`;
      nodes.push({
        node: id,
        instancePath: `/${inst}/${id}`,
        pack: 'p',
        packId: 'https://example.com/packs/p',
        packVersion: '1.0.0',
        specVersion: '0.2.0-draft',
        factFeeds: [{ from, pointer: '/prev', injected: n % 2 === 0, ...(n % 2 === 0 ? { value: 'ok' } : {}) }],
        evidenceFeeds: [{ from, requirement: 'doc', state: 'present' }],
        disposition: disposition(n),
        work: 10,
      });
    }
  }
  const root = disposition(1);
  nodes.push({
    node: 'final',
    instancePath: 'final',
    pack: 'p',
    packId: 'https://example.com/packs/p',
    packVersion: '1.0.0',
    specVersion: '0.2.0-draft',
    factFeeds: subgraphs.map((_, s) => ({
      from: `i${String(s).padStart(2, '0')}`,
      output: 'out',
      pointer: `/s/${s}`,
      injected: false,
    })),
    evidenceFeeds: [],
    disposition: root,
    work: 10,
  });
  return {
    status: 'evaluated',
    experimental: true,
    formatVersion: '0.2.0-draft',
    graphId: 'https://example.com/graphs/big',
    graphVersion: '1.0.0',
    graphDigest: `sha256:${'b'.repeat(64)}`,
    resultNode: 'final',
    headline: { node: 'final', disposition: root },
    disposition: root,
    handoffs: [],
    nodes,
    subgraphs,
    work: { budget: 1_000_000, used: 2570 },
  };
}

function main(): void {
  const text = JSON.stringify(bigRun());
  let bytes = 0;
  const draw = (): void => {
    const v = readGraphRunView(JSON.parse(text));
    if (!v.ok) throw new Error(v.error.message);
    bytes = svgMarkup(graphSvg(v.value, layoutGraphRun(v.value))).length;
  };
  const parse = (): void => {
    if (JSON.parse(text) === null) throw new Error('unreachable');
  };
  for (let i = 0; i < 5; i++) {
    draw();
    parse();
  }
  const d: number[] = [];
  const p: number[] = [];
  for (let r = 0; r < 31; r++) {
    d.push(secondsOf(1, draw));
    p.push(secondsOf(1, parse));
  }
  const ms = (s: number) => (s * 1000).toFixed(2);
  console.log(`graph view, 256 leaves + 16 instances (${text.length} bytes of result, ${bytes} bytes of SVG)`);
  console.log(`  drawing (parse + read + layout + SVG model + markup): ${ms(median(d))} ms`);
  console.log(`  baseline JSON.parse of the result:                    ${ms(median(p))} ms`);
  console.log(`  ratio: ${(median(d) / median(p)).toFixed(1)}×`);
  console.log(`  reproduce: ${COMMAND}`);
}

main();
