/**
 * `docket submit --graph` builds its graph request (docket.graph-request/1) by splicing the inputs document's exact
 * bytes, so the digest the ledger records for the inputs is the file's own (docs/pipeline.md "Graph requests").
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readGraphRequest } from '../../core/admission/index.js';
import { buildGraphRequest, requestFromLine } from '../../core/pipeline/index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const DIGEST = `sha256:${'ab'.repeat(32)}`;

describe('buildGraphRequest', () => {
  it('splices the inputs bytes verbatim, numbers and member order untouched, after the members it writes itself', () => {
    const inputs = '{"caller":{"facts":{"n":1.50,"z":"\\u00e9","a":1e2}}}';
    const r = buildGraphRequest({ requestId: 'g-1', graph: DIGEST, inputs: enc(` \n${inputs}\n`), workBudget: 5000 });
    expect(r).toEqual({
      ok: true,
      value: `{"format":"docket.graph-request/1","requestId":"g-1","graph":"${DIGEST}","workBudget":5000,"inputs":${inputs}}`,
    });
    const text = r.ok ? r.value : '';
    const slice = text.slice(text.indexOf('"inputs":') + 9, -1);
    expect(createHash('sha256').update(slice).digest('hex')).toBe(createHash('sha256').update(inputs).digest('hex'));
  });

  it('names a graph by its alias id@version, and leaves inputs out when none is given', () => {
    const r = buildGraphRequest({
      requestId: 'g-2',
      graph: 'https://graphs.example.org/procurement/vendor-onboarding@2.0.0',
    });
    expect(r.ok && JSON.parse(r.value)).toEqual({
      format: 'docket.graph-request/1',
      requestId: 'g-2',
      graph: 'https://graphs.example.org/procurement/vendor-onboarding@2.0.0',
    });
  });

  it('builds what the pipeline reads back: the same id, graph, budget and exact inputs bytes', () => {
    const inputs = '{"caller":{"facts":{"x":"1.0"}}}';
    const r = buildGraphRequest({ requestId: 'g-3', graph: DIGEST, inputs: enc(inputs), workBudget: 7 });
    const read = readGraphRequest(enc(r.ok ? r.value : ''));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect([read.value.requestId, read.value.graph, read.value.workBudget]).toEqual([
      'g-3',
      { kind: 'digest', digest: DIGEST },
      7,
    ]);
    expect(new TextDecoder().decode(read.value.inputs)).toBe(inputs);
  });

  it('refuses a graph reference that is neither a digest nor an alias, and a bad request id', () => {
    for (const graph of ['sha256:ABC', 'no-version', 'a@b@c', `sha256:${'0'.repeat(63)}`, 'x@\n1'])
      expect(buildGraphRequest({ requestId: 'g', graph }).ok, graph).toBe(false);
    expect(buildGraphRequest({ requestId: 'has space', graph: DIGEST })).toMatchObject({ ok: false });
  });

  it('refuses inputs that are not a strict JSON text (a duplicate member), rather than sending them', () => {
    const r = buildGraphRequest({ requestId: 'g', graph: DIGEST, inputs: enc('{"caller":{},"caller":{}}') });
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error).toMatch(/^the inputs document is not a strict JSON text/);
  });
});

describe('a graph request in a `docket submit --file` batch', () => {
  it('is sent byte for byte as its line holds it, beside evaluation requests built from theirs', () => {
    const line = `{"format":"docket.graph-request/1","requestId":"g-7","graph":"${DIGEST}","inputs":{"caller":{"facts":{"n":1.50}}}}`;
    const r = requestFromLine(enc(line), 3, { idPrefix: 'batch' });
    expect(r).toEqual({ ok: true, value: { requestId: 'g-7', text: line } });
    const read = readGraphRequest(enc(r.ok ? r.value.text : ''));
    expect(read.ok).toBe(true);
    const evaluation = requestFromLine(enc('{"facts":{"a":1}}'), 4, { idPrefix: 'batch', pack: 'p@1' });
    expect(evaluation.ok && evaluation.value.requestId).toBe('batch-4');
  });
});

describe('a graph request line in a `docket submit --file` batch', () => {
  it('wraps {graph, inputs, requestId} into a docket.graph-request/1, the inputs spliced byte for byte', () => {
    const line = `{"requestId":"g-1","graph":"${DIGEST}","inputs":{"caller":{"facts":{"n":1.50}}}}`;
    const r = requestFromLine(enc(line), 5, { idPrefix: 'batch' });
    expect(r).toEqual({
      ok: true,
      value: {
        requestId: 'g-1',
        text: `{"format":"docket.graph-request/1","requestId":"g-1","graph":"${DIGEST}","inputs":{"caller":{"facts":{"n":1.50}}}}`,
      },
    });
    expect(readGraphRequest(enc(r.ok ? r.value.text : '')).ok).toBe(true);
  });

  it('names a graph line without requestId by its line number, and takes no inputs as no inputs', () => {
    const r = requestFromLine(enc('{"graph":"flow@0.1.0"}'), 9, { idPrefix: 'batch', pack: 'p@1' });
    expect(r).toEqual({
      ok: true,
      value: {
        requestId: 'batch-9',
        text: '{"format":"docket.graph-request/1","requestId":"batch-9","graph":"flow@0.1.0"}',
      },
    });
  });

  it('refuses a graph line carrying evaluation members, a non-string graph or a bad reference', () => {
    const bad = (line: string) => {
      const r = requestFromLine(enc(line), 1, { idPrefix: 'batch', pack: 'p@1' });
      return r.ok ? 'sent' : r.error;
    };
    expect(bad(`{"graph":"${DIGEST}","facts":{}}`)).toBe('a graph request line has no member "facts"');
    expect(bad('{"graph":7}')).toMatch(/^"graph" must be a string/);
    expect(bad('{"graph":"nothing"}')).toMatch(/is neither sha256/);
    expect(bad('{"inputs":{}}')).toMatch(/^a line needs "facts", "graph"/);
  });
});
