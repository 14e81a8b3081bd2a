/**
 * The closed set a published graph pins (ADR 0340): derived from the documents, serialized once and read strictly,
 * and checked against what the registry holds — missing members, members that differ from their pins, and a closure
 * record that names more or less than the graph needs are all refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkClosedSet,
  closureOf,
  readClosure,
  serializeClosure,
  type GraphClosure,
} from '../../core/graph-closure/index.js';
import type { GraphProject, SourceFile } from '../../core/graph/index.js';

const root = join(process.cwd(), 'examples/graphs/procurement-triage');
const file = (p: string): Uint8Array => new Uint8Array(readFileSync(join(root, p)));
const sha = (b: Uint8Array): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const PACKS = ['ofac-screening', 'pep-screening', 'risk-aggregator', 'procurement-decision'];
const graphBytes = file('graphs/procurement-triage.graph.json');
const subBytes = file('graphs/sanctions-screening.graph.json');

function project(overrides: { packs?: Record<string, SourceFile>; graphs?: Record<string, SourceFile> } = {}) {
  const packs = new Map<string, SourceFile>(PACKS.map((n) => [n, { ok: true, bytes: file(`packs/${n}.json`) }]));
  const graphs = new Map<string, SourceFile>([['sanctions-screening', { ok: true, bytes: subBytes }]]);
  for (const [k, v] of Object.entries(overrides.packs ?? {})) packs.set(k, v);
  for (const [k, v] of Object.entries(overrides.graphs ?? {})) graphs.set(k, v);
  return { packs, graphs } satisfies GraphProject;
}

function closure(): GraphClosure {
  const c = closureOf(graphBytes, project());
  if (!c.ok) throw new Error(JSON.stringify(c.findings));
  return c.closure;
}

function fetchedFrom(p: GraphProject, c: GraphClosure) {
  const pick = (m: ReadonlyMap<string, SourceFile>, names: string[]) =>
    new Map(names.map((n) => [n, m.get(n)?.ok ? (m.get(n) as { bytes: Uint8Array }).bytes : null]));
  return { packs: pick(p.packs, Object.keys(c.packs)), graphs: pick(p.graphs, Object.keys(c.graphs)) };
}

describe('the closure of a graph', () => {
  it('pins every pack used at any depth and the subgraph by the digests of their exact bytes', () => {
    const c = closure();
    expect(c.graph).toBe(sha(graphBytes));
    expect(c.graphId).toBe('https://example.com/graphs/procurement-triage');
    expect(c.graphs).toEqual({ 'sanctions-screening': sha(subBytes) });
    expect(Object.keys(c.packs)).toEqual([...PACKS].sort());
    for (const n of PACKS) expect(c.packs[n]).toBe(sha(file(`packs/${n}.json`)));
  });

  it('reports a pack the project lacks as missing', () => {
    const p = project();
    p.packs.delete('ofac-screening');
    const c = closureOf(graphBytes, p);
    expect(c.ok).toBe(false);
    if (!c.ok)
      expect(c.findings).toEqual([expect.objectContaining({ code: 'member-missing', member: 'pack ofac-screening' })]);
  });

  it('reports a subgraph whose bytes differ from its pin, even by a trailing newline', () => {
    const changed = new Uint8Array([...subBytes, 0x0a]);
    const c = closureOf(graphBytes, project({ graphs: { 'sanctions-screening': { ok: true, bytes: changed } } }));
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.findings.map((f) => f.code)).toEqual(['member-differs']);
  });
});

describe('the closure record', () => {
  it('round-trips through its one serializer and strict reader, byte for byte', () => {
    const bytes = serializeClosure(closure());
    expect(bytes.ok).toBe(true);
    if (!bytes.ok) return;
    const back = readClosure(bytes.value);
    expect(back).toEqual({ ok: true, value: closure() });
    const again = serializeClosure((back as { value: GraphClosure }).value);
    expect(again.ok && new TextDecoder().decode(again.value)).toBe(new TextDecoder().decode(bytes.value));
  });

  it('refuses a record that is not in canonical form, has an extra member or a malformed pin', () => {
    const text = new TextDecoder().decode((serializeClosure(closure()) as { value: Uint8Array }).value);
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(readClosure(enc(` ${text}`)).ok).toBe(false);
    expect(readClosure(enc(text.replace('{', '{"extra":"x",'))).ok).toBe(false);
    expect(
      readClosure(enc(text.replace(/"ofac-screening":"sha256:[0-9a-f]{64}"/, '"ofac-screening":"md5:00"'))).ok,
    ).toBe(false);
    expect(readClosure(enc(text.replace('"packs":{', '"packs":{"a":"x","a":"y",'))).ok).toBe(false);
  });

  it('carries the optional testedRows member, in canonical order, through the serializer and the reader', () => {
    const testedRows = { digest: sha(new Uint8Array([1])), cases: 3, passed: 3 };
    const bytes = serializeClosure({ ...closure(), testedRows });
    if (!bytes.ok) throw new Error(bytes.error.message);
    const text = new TextDecoder().decode(bytes.value);
    expect(text.endsWith(`,"testedRows":{"cases":3,"digest":"${testedRows.digest}","passed":3}}`)).toBe(true);
    expect(readClosure(bytes.value)).toEqual({ ok: true, value: { ...closure(), testedRows } });
    const enc = (t: string) => new TextEncoder().encode(t);
    expect(readClosure(enc(text.replace('"cases":3', '"cases":3.0'))).ok).toBe(false);
    expect(readClosure(enc(text.replace('"passed":3}', '"passed":3,"when":"x"}'))).ok).toBe(false);
    for (const bad of [
      { ...testedRows, passed: 4 },
      { ...testedRows, cases: 0, passed: 0 },
      { ...testedRows, digest: 'x' },
    ])
      expect(serializeClosure({ ...closure(), testedRows: bad }).ok).toBe(false);
  });

  it('is never emitted for a closure with a malformed digest', () => {
    expect(serializeClosure({ ...closure(), graph: 'sha256:nothex' })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'closure-record-invalid' }),
    });
  });
});

describe('the closed-set check over what the registry holds', () => {
  it('accepts every member present and equal to its pin, and hands back the project they form', () => {
    const c = closure();
    const r = checkClosedSet(c, graphBytes, fetchedFrom(project(), c));
    expect(r.ok).toBe(true);
    if (r.ok) expect([...r.project.packs.keys()].sort()).toEqual([...PACKS].sort());
  });

  it('refuses a graph one of whose packs is not published', () => {
    const c = closure();
    const f = fetchedFrom(project(), c);
    f.packs.set('pep-screening', null);
    const r = checkClosedSet(c, graphBytes, f);
    expect(r).toEqual({
      ok: false,
      findings: [expect.objectContaining({ code: 'member-missing', member: 'pack pep-screening' })],
    });
  });

  it('refuses a member whose stored bytes differ from its pin', () => {
    const c = closure();
    const f = fetchedFrom(project(), c);
    f.graphs.set('sanctions-screening', new Uint8Array([...subBytes, 0x20]));
    const r = checkClosedSet(c, graphBytes, f);
    expect(r).toEqual({
      ok: false,
      findings: [expect.objectContaining({ code: 'member-differs', member: 'graph sanctions-screening' })],
    });
  });

  it('refuses a closure record that names a pack the graph does not use', () => {
    const c = closure();
    const extra = file('packs/ofac-screening.json');
    const widened: GraphClosure = { ...c, packs: { ...c.packs, unused: sha(extra) } };
    const f = fetchedFrom(project(), c);
    f.packs.set('unused', extra);
    const r = checkClosedSet(widened, graphBytes, f);
    expect(r).toEqual({ ok: false, findings: [expect.objectContaining({ code: 'closure-mismatch' })] });
  });

  it('refuses a closure record for other graph bytes', () => {
    const c = closure();
    const r = checkClosedSet(c, subBytes, fetchedFrom(project(), c));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.findings[0]).toEqual(expect.objectContaining({ code: 'member-differs', member: 'graph' }));
  });
});

describe('hostile names in a closure record', () => {
  it('keeps a pack named "__proto__" as a name through the serializer and the reader', () => {
    const pin = `sha256:${'a'.repeat(64)}`;
    const c: GraphClosure = { ...closure(), packs: Object.fromEntries([['__proto__', pin]]) };
    const bytes = serializeClosure(c);
    expect(bytes.ok).toBe(true);
    if (!bytes.ok) return;
    expect(new TextDecoder().decode(bytes.value)).toContain(`"packs":{"__proto__":"${pin}"}`);
    const back = readClosure(bytes.value);
    expect(back.ok).toBe(true);
    if (back.ok) expect(Object.entries(back.value.packs)).toEqual([['__proto__', pin]]);
  });
});
