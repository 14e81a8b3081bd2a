/**
 * A graph run asked for traces keeps each leaf's §8.3 diagnostic trace beside its disposition (ADR 0371): the
 * console reads which pack rules fired at each node from it. Asking changes nothing else: the printed result object
 * and the work are the same bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateGraph, graphRunJson } from '../../core/graph/index.js';
import { type GraphEvaluation } from '../../core/graph/graph-run.js';
import { readProject } from '../../cli/graph/project-config.js';

const DIR = join(process.cwd(), 'examples', 'graphs', 'vendor-onboarding');
const GRAPH = join(DIR, 'graphs', 'vendor-onboarding.graph.json');

async function run(inputs: string, trace: boolean) {
  const read = await readProject(join(DIR, 'jpack.json'), GRAPH);
  if (!read.ok) throw new Error(read.error.message);
  return evaluateGraph({
    graph: new Uint8Array(readFileSync(GRAPH)),
    project: read.project,
    inputs: new Uint8Array(readFileSync(join(DIR, 'inputs', `${inputs}.json`))),
    supportedExtensions: new Set(),
    trace,
  });
}

describe('evaluateGraph with trace', () => {
  it('gives the same result object, byte for byte, as a run without traces', async () => {
    for (const c of ['clean-vendor', 'owner-on-watchlist', 'owner-report-missing'])
      expect(graphRunJson(await run(c, true)), c).toBe(graphRunJson(await run(c, false)));
  });

  it("names, at each leaf, the rules that were true: the owner's watchlist match and both rejections of its verdict", async () => {
    const r = (await run('owner-on-watchlist', true)) as GraphEvaluation;
    const fired = (path: string) =>
      r.nodes
        .find((n) => n.instancePath === path)!
        .trace!.rules.filter((x) => x.value === 'true')
        .map((x) => x.id);
    expect(fired('/owner-screening/watchlist')).toEqual(['match-when-any-hit']);
    expect(fired('/owner-screening/verdict')).toEqual(['rejected-when-watchlist-match', 'rejected-when-media-flagged']);
    expect(fired('/vendor-screening/watchlist')).toEqual(['clear-when-no-hits']);
    expect(fired('onboarding')).toEqual(['reject-when-owner-rejected']);
  });

  it('keeps no trace when none was asked for', async () => {
    const r = (await run('clean-vendor', false)) as GraphEvaluation;
    expect(r.nodes.every((n) => n.trace === undefined)).toBe(true);
  });
});
