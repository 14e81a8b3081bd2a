/**
 * `docket graph validate|evaluate` in-process: one JSON object on stdout and the runtime's exit statuses
 * (0 ok, 1 invalid, 2 unsupported, 3 invocation, 4 io).
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, EX } from './helpers.js';

const PROJECT = join(EX, 'graphs', 'procurement-triage');
const CONFIG = join(PROJECT, 'jpack.json');
const ROOT_GRAPH = join(PROJECT, 'graphs', 'procurement-triage.graph.json');
const INPUTS = join(PROJECT, 'inputs.json');

const json = (out: string): Record<string, unknown> => {
  expect(out.endsWith('\n')).toBe(true);
  expect(out.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(out) as Record<string, unknown>;
};

function tempProject(edit: (dir: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'docket-graph-'));
  cpSync(PROJECT, dir, { recursive: true });
  edit(dir);
  return dir;
}

describe('docket graph evaluate', () => {
  it("prints RFC 0022's worked example: the headline as the RFC states it, the officer verbatim, exit 0", async () => {
    const r = await cli(['graph', 'evaluate', '--config', CONFIG, '--graph', ROOT_GRAPH, '--inputs', INPUTS]);
    expect(r.code).toBe(0);
    const o = json(r.out);
    expect(o.headline).toEqual({
      node: 'procurement-approval',
      disposition: { handoff: { state: 'none' }, kind: 'unresolved', reasons: ['no-match'] },
    });
    expect(o.handoffs).toEqual([
      {
        originatingNode: '/contractor-sanctions/ofac-check',
        triggeredBy: ['missing-required-evidence'],
        target: { kind: 'human-role', name: 'Sanctions Compliance Officer' },
      },
      { originatingNode: '/contractor-sanctions/pep-check', triggeredBy: ['exception-escalation'] },
    ]);
  });
  it('exits 4 with JPS-GRAPH-READ when the graph file cannot be read', async () => {
    const r = await cli(['graph', 'evaluate', '--config', CONFIG, '--graph', join(PROJECT, 'missing.json')]);
    expect(r.code).toBe(4);
    expect(json(r.out)).toMatchObject({ status: 'refused', error: { layer: 'load', code: 'JPS-GRAPH-READ' } });
  });
  it('exits 4 when the inputs file cannot be read and 4 when the configuration cannot', async () => {
    const a = await cli(['graph', 'evaluate', '--config', CONFIG, '--graph', ROOT_GRAPH, '--inputs', '/nonexistent/x']);
    expect([a.code, (json(a.out).error as { code: string }).code]).toEqual([4, 'JPS-GRAPH-INPUTS-READ']);
    const b = await cli(['graph', 'evaluate', '--config', '/nonexistent/jpack.json', '--graph', ROOT_GRAPH]);
    expect([b.code, (json(b.out).error as { code: string }).code]).toEqual([4, 'JPS-GRAPH-CONFIG-READ']);
  });
  it('exits 2 for an unsupported formatVersion and 1 for a structural refusal', async () => {
    const dir = tempProject((d) => writeFileSync(join(d, 'v9.json'), '{"formatVersion":"9"}'));
    const r = await cli(['graph', 'evaluate', '--config', join(dir, 'jpack.json'), '--graph', join(dir, 'v9.json')]);
    expect([r.code, (json(r.out).error as { code: string }).code]).toEqual([2, 'JPS-GRAPH-VERSION']);
    const bad = tempProject((d) =>
      writeFileSync(
        join(d, 'bad.json'),
        JSON.stringify({
          formatVersion: '1',
          id: 'g',
          version: '1.0.0',
          nodes: { a: { pack: 'nope' } },
          edges: [],
          result: 'a',
        }),
      ),
    );
    const s = await cli(['graph', 'evaluate', '--config', join(bad, 'jpack.json'), '--graph', join(bad, 'bad.json')]);
    expect(s.code).toBe(1);
    expect(json(s.out).error).toEqual({
      layer: 'structure',
      code: 'JPS-GRAPH-INVALID',
      diagnostic: 'JPS-GRAPH-NODE-PACK',
      class: null,
      phase: null,
      node: null,
      message: expect.any(String) as string,
    });
  });
  it('refuses a configuration path that leaves the configuration directory, exit 3', async () => {
    const dir = tempProject((d) =>
      writeFileSync(
        join(d, 'jpack.json'),
        JSON.stringify({ configVersion: '2', packs: { x: { path: '../outside.json' } }, graphs: {} }),
      ),
    );
    const r = await cli(['graph', 'evaluate', '--config', join(dir, 'jpack.json'), '--graph', ROOT_GRAPH]);
    expect([r.code, (json(r.out).error as { code: string }).code]).toEqual([3, 'JPS-GRAPH-CONFIG']);
  });
  it('refuses a configuration that is not the runtime shape, exit 3', async () => {
    const dir = tempProject((d) => writeFileSync(join(d, 'jpack.json'), '{"formatVersion":"0.1.0","packs":{}}'));
    const r = await cli(['graph', 'evaluate', '--config', join(dir, 'jpack.json'), '--graph', ROOT_GRAPH]);
    expect(r.code).toBe(3);
  });
  it('exits 3 on a usage mistake and 0 for --help', async () => {
    expect((await cli(['graph', 'evaluate', '--graph', ROOT_GRAPH])).code).toBe(3);
    expect((await cli(['graph', 'frobnicate'])).code).toBe(3);
    expect((await cli(['graph', 'validate', '--config', CONFIG, '--graph', ROOT_GRAPH, '--inputs', INPUTS])).code).toBe(
      3,
    );
    const h = await cli(['graph', '--help']);
    expect([h.code, h.out.startsWith('usage: docket graph validate')]).toEqual([0, true]);
  });
  it('takes --supported-extension and --work-budget', async () => {
    const r = await cli([
      'graph',
      'evaluate',
      '--config',
      CONFIG,
      '--graph',
      ROOT_GRAPH,
      '--inputs',
      INPUTS,
      '--work-budget',
      '100',
    ]);
    expect(r.code).toBe(1);
    expect(json(r.out).error).toMatchObject({ layer: 'node', class: 'resource-exhaustion' });
  });
});

describe('docket graph validate', () => {
  it('prints {"status":"valid","diagnostics":[]} and exits 0 for the worked example', async () => {
    const r = await cli(['graph', 'validate', '--config', CONFIG, '--graph', ROOT_GRAPH]);
    expect([r.code, json(r.out)]).toEqual([0, { status: 'valid', diagnostics: [] }]);
  });
  it('lists every diagnostic and exits 1; a digest that no longer matches the bytes is one of them', async () => {
    const dir = tempProject((d) => writeFileSync(join(d, 'graphs', 'sanctions-screening.graph.json'), '{}\n'));
    const r = await cli([
      'graph',
      'validate',
      '--config',
      join(dir, 'jpack.json'),
      '--graph',
      join(dir, 'graphs', 'procurement-triage.graph.json'),
    ]);
    expect(r.code).toBe(1);
    const o = json(r.out) as { status: string; diagnostics: { code: string; path: string }[] };
    expect(o.status).toBe('invalid');
    expect(o.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['JPS-GRAPH-REFERENCE-DIGEST-MISMATCH', '/nodes/contractor-sanctions/digest'],
      ['JPS-GRAPH-REFERENCE-DIGEST-MISMATCH', '/nodes/vendor-sanctions/digest'],
    ]);
  });
});
