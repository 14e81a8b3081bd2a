/**
 * The graph request's one decision (ADR 0360): the reader, the opt-in, the alias, the digest, the budget, the run and
 * the exact entry's fit, in that order, one refusal code each; and the intake reader that tells the two formats apart.
 */
import { describe, expect, it } from 'vitest';
import {
  decideGraph,
  GRAPH_REQUEST_FORMAT,
  readGraphRequest,
  readIntakeRequest,
  REFUSAL_STEP,
  type AdmissionDeployment,
  type GraphRegistry,
} from '../../core/admission/index.js';
import { graphRunJson } from '../../core/graph/index.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { CLOSURE, hexOf, PUBLISHED, INPUTS, PROJECT, ROOT_GRAPH, runExample } from '../ledger/graph-run-fixtures.js';
import { BUILD_DIGEST } from '../ledger/fixtures.js';

const enc = new TextEncoder();
const DIGEST = hexOf(CLOSURE.graph);
const NAMED = PUBLISHED;
const ALIAS = `${CLOSURE.graphId}@${CLOSURE.graphVersion}`;
const inputsText = new TextDecoder().decode(INPUTS).trim();

const DEPLOYMENT: AdmissionDeployment = {
  logIds: ['log-0'],
  supportedExtensions: [],
  evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD_DIGEST },
  draftFeatures: ['judgment-graphs'],
  defaultWorkBudget: 100_000,
  maxWorkBudget: 1_000_000,
};
const OFF: AdmissionDeployment = { ...DEPLOYMENT, draftFeatures: ['rfc0008-quantifiers'] };

const registry: GraphRegistry = {
  resolveGraphAlias: (alias) => Promise.resolve(alias === ALIAS ? NAMED : null),
  loadGraph: (digest) =>
    Promise.resolve(
      digest === NAMED ? { digest: DIGEST, bytes: ROOT_GRAPH, closure: CLOSURE, project: PROJECT } : null,
    ),
};

const request = (over: Record<string, unknown> = {}, inputs = inputsText): Uint8Array =>
  enc.encode(
    JSON.stringify({ format: GRAPH_REQUEST_FORMAT, requestId: 'g-1', graph: `sha256:${NAMED}`, ...over }).slice(0, -1) +
      (inputs === '' ? '}' : `,"inputs":${inputs}}`),
  );
const decide = (bytes: Uint8Array, d = DEPLOYMENT) => decideGraph(readGraphRequest(bytes), d, registry);

describe('reading a graph request', () => {
  it('keeps the inputs document as the exact bytes written, whitespace inside it included', () => {
    const text = '{ "caller" : {"facts": {}} }';
    const r = readGraphRequest(request({}, text));
    expect(r.ok && new TextDecoder().decode(r.value.inputs)).toBe(text);
  });

  it.each([
    [
      'a duplicate member',
      '{"format":"docket.graph-request/1","format":"x","requestId":"a","graph":"a@1"}',
      'request-not-json',
    ],
    [
      'an unknown member',
      JSON.stringify({ format: GRAPH_REQUEST_FORMAT, requestId: 'a', graph: 'a@1', pack: 'x' }),
      'request-member-unknown',
    ],
    [
      'a graph reference of neither shape',
      JSON.stringify({ format: GRAPH_REQUEST_FORMAT, requestId: 'a', graph: 'sha256:XYZ' }),
      'request-graph-invalid',
    ],
    ['no graph', JSON.stringify({ format: GRAPH_REQUEST_FORMAT, requestId: 'a' }), 'request-graph-invalid'],
    [
      'a fractional budget',
      JSON.stringify({ format: GRAPH_REQUEST_FORMAT, requestId: 'a', graph: 'a@1', workBudget: 1.5 }),
      'request-work-budget-invalid',
    ],
    [
      'a correlation holding a number',
      JSON.stringify({ format: GRAPH_REQUEST_FORMAT, requestId: 'a', graph: 'a@1', correlation: { t: 1 } }),
      'request-correlation-invalid',
    ],
  ])('refuses %s with its code, keeping the request id', (_n, text, code) => {
    const r = readGraphRequest(enc.encode(text));
    expect(r.ok ? 'ok' : r.error.code).toBe(code);
  });

  it('keeps an inputs document that is not a strict JSON text as its bytes, for the graph layer to refuse', async () => {
    const text = '{"caller":{"facts":{},"facts":{}}}';
    const r = readGraphRequest(request({}, text));
    expect(r.ok && new TextDecoder().decode(r.value.inputs)).toBe(text);
    const d = await decide(request({}, text));
    expect(d.kind === 'run' && JSON.parse(d.entry.run)).toMatchObject({ status: 'refused' });
    expect(d.kind === 'run' && d.entry.inputsDigest).toBe(sha256Hex(enc.encode(text)));
    // Outside the inputs document the envelope is still read strictly.
    const dup = readGraphRequest(enc.encode(`{"requestId":"a","requestId":"b","inputs":${text}}`));
    expect(dup.ok ? 'ok' : dup.error.code).toBe('request-not-json');
  });

  it('refuses a graph request over the size limit under its request id, so the refusal is recorded', () => {
    const r = readGraphRequest(request({}, `{"pad":"${'x'.repeat(400_000)}"}`));
    expect(r.ok ? 'ok' : [r.error.code, r.error.requestId]).toEqual(['request-too-large', 'g-1']);
  });

  it('tells the two formats apart on one queue, and names both when a message has neither', () => {
    const g = readIntakeRequest(request());
    expect(g.ok && 'graph' in g.value).toBe(true);
    const other = readIntakeRequest(enc.encode('{"format":"docket.other/1","requestId":"x-1"}'));
    expect(other.ok ? 'ok' : [other.error.code, other.error.requestId]).toEqual(['request-format-unsupported', 'x-1']);
    if (!other.ok) expect(other.error.message).toContain(GRAPH_REQUEST_FORMAT);
  });
});

describe('the intake reader on graph requests whose inputs are not strict JSON', () => {
  it.each([
    ['a duplicate member inside inputs', '{"caller":{"facts":{},"facts":{}}}'],
    ['a lone surrogate inside inputs', '{"caller":{"facts":{"name":"\\ud800"}}}'],
    ['inputs with a trailing comma', '{"caller":{"facts":{}},}'],
  ])('reads %s as the graph request it is, with the exact inputs bytes', (_n, text) => {
    const r = readIntakeRequest(request({}, text));
    expect(r.ok ? [r.value.requestId, 'graph' in r.value] : r.error).toEqual(['g-1', true]);
    expect(r.ok && 'graph' in r.value && new TextDecoder().decode(r.value.inputs)).toBe(text);
  });

  it('keeps the evaluation reader’s refusal for a message that is neither format’s readable envelope', () => {
    for (const text of ['{"facts": {}, "oops": ', `{"requestId":"a","requestId":"b","inputs":{"x":1,"x":2}}`]) {
      const r = readIntakeRequest(enc.encode(text));
      expect(r.ok ? 'ok' : r.error.code, text).toBe('request-not-json');
    }
  });
});

describe('the graph decision', () => {
  it('runs an admitted request: the entry members are the closure, the exact inputs digest and the run text', async () => {
    const d = await decide(request());
    expect(d.kind).toBe('run');
    if (d.kind !== 'run') return;
    const expected = runExample(100_000);
    expect(d.entry.run).toBe(graphRunJson(expected));
    expect(d.entry.inputsDigest).toBe(sha256Hex(enc.encode(inputsText)));
    expect(d.entry.graph).toEqual({ digest: DIGEST, id: CLOSURE.graphId, version: CLOSURE.graphVersion });
    expect(d.entry.work).toBe(expected.status === 'evaluated' ? expected.work.used : -1);
  });

  it('resolves an alias to the digest it names', async () => {
    const d = await decide(request({ graph: ALIAS }));
    expect(d.kind === 'run' ? d.entry.graph.digest : d.kind).toBe(DIGEST);
  });

  it.each([
    ['graphs-not-enabled', () => decide(request(), OFF)],
    ['graphs-not-enabled', () => decide(request(), { ...DEPLOYMENT, draftFeatures: [] })],
    ['unknown-graph-alias', () => decide(request({ graph: 'https://example.com/none@1.0.0' }))],
    ['unknown-graph-digest', () => decide(request({ graph: `sha256:${'0'.repeat(64)}` }))],
    ['work-budget-out-of-range', () => decide(request({ workBudget: 2_000_000 }))],
    ['work-budget-out-of-range', () => decide(request({ workBudget: 0 }))],
    ['request-malformed', () => decide(request({ extra: true }))],
  ] as const)('refuses %s at its step', async (code, run) => {
    const d = await run();
    expect(d.kind === 'refused' ? [d.code, d.step] : d.kind).toEqual([code, REFUSAL_STEP[code]]);
  });

  it('refuses graph-closure-mismatch when the registry serves another closed set under the digest asked for', async () => {
    // A member rebound to other bytes under the same name: the graph document is the same, its meaning is not.
    const rebound = { ...CLOSURE, packs: { ...CLOSURE.packs, 'ofac-screening': `sha256:${'1'.repeat(64)}` } };
    const lying: GraphRegistry = {
      resolveGraphAlias: registry.resolveGraphAlias,
      loadGraph: async (digest) =>
        digest === NAMED ? { digest: DIGEST, bytes: ROOT_GRAPH, closure: rebound, project: PROJECT } : null,
    };
    for (const graph of [`sha256:${NAMED}`, ALIAS]) {
      const d = await decideGraph(readGraphRequest(request({ graph })), DEPLOYMENT, lying);
      expect(d.kind === 'refused' ? [d.code, d.step] : d.kind).toEqual(['graph-closure-mismatch', 'digest']);
      if (d.kind === 'refused') expect(d.message).toContain(`sha256:${NAMED}`);
    }
  });

  it('names a published graph by its closure digest, never by its document digest alone', async () => {
    const d = await decide(request({ graph: `sha256:${DIGEST}` }));
    expect(d.kind === 'refused' ? d.code : d.kind).toBe('unknown-graph-digest');
  });

  it('judges the opt-in before the graph: an unknown graph on a deployment without it is graphs-not-enabled', async () => {
    const d = await decide(request({ graph: `sha256:${'0'.repeat(64)}` }), OFF);
    expect(d.kind === 'refused' ? d.code : d.kind).toBe('graphs-not-enabled');
  });

  it('records a refused run (the budget runs out) as a run, with the work its nodes used', async () => {
    const d = await decide(request({ workBudget: 60 }));
    expect(d.kind).toBe('run');
    if (d.kind !== 'run') return;
    expect(JSON.parse(d.entry.run)).toMatchObject({ status: 'refused', error: { class: 'resource-exhaustion' } });
    const refused = runExample(60);
    expect(refused.status === 'refused' ? refused.workUsed : -1).toBe(d.entry.work);
    expect(d.entry.work).toBeGreaterThan(0);
    expect(d.entry.work).toBeLessThanOrEqual(60);
  });

  it('refuses entry-would-not-fit when the exact entry of the run is over the item limit, and nothing else', async () => {
    // The vendor's name is injected into the subgraph's and its leaf's fact feeds, so the run text holds it twice,
    // and each quote is escaped again inside the entry: 90,000 quotes (180 KB of request) take 720 KB of entry.
    const inputs = inputsText.replace('Acme Global Corp', '\\"'.repeat(90_000));
    const d = await decide(request({ workBudget: 1_000_000 }, inputs));
    expect(d.kind === 'refused' ? [d.code, d.step] : d.kind).toEqual(['entry-would-not-fit', 'fit']);
    if (d.kind === 'refused') expect(d.message).toMatch(/a ledger item holds at most/);
    const fits = await decide(request({}, inputsText.replace('Acme Global Corp', 'n'.repeat(1_000))));
    expect(fits.kind).toBe('run');
  });
});
