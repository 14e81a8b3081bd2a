/**
 * A published graph's identity (ADR 0450): the digest of its closure record, which fixes the graph document and every
 * member pin, and which a graph-run entry re-derives from its own members.
 */
import { describe, expect, it } from 'vitest';
import { closureDigest, serializeClosure, type GraphClosure } from '../../core/graph-closure/index.js';
import { entryClosureDigest } from '../../core/admission/index.js';
import { entryClosure } from '../../core/admission/graph-identity.js';
import { bytesDigest } from '../../core/graph/index.js';
import { CLOSURE, graphRunEntry } from '../ledger/graph-run-fixtures.js';

const digest = (c: GraphClosure): string => {
  const d = closureDigest(c);
  if (!d.ok) throw new Error(d.error.message);
  return d.value;
};

describe('closureDigest', () => {
  it('is the SHA-256 of the closure record’s one serialization, whatever order its pins were listed in', () => {
    const record = serializeClosure(CLOSURE);
    expect(record.ok && digest(CLOSURE)).toBe(record.ok ? bytesDigest(record.value) : '');
    const reversed = { ...CLOSURE, packs: Object.fromEntries(Object.entries(CLOSURE.packs).reverse()) };
    expect(digest(reversed)).toBe(digest(CLOSURE));
  });

  it('changes with the graph document, with any member pin, and with the id or version', () => {
    const [pack] = Object.keys(CLOSURE.packs);
    const [sub] = Object.keys(CLOSURE.graphs);
    const others: GraphClosure[] = [
      { ...CLOSURE, graph: `sha256:${'1'.repeat(64)}` },
      { ...CLOSURE, packs: { ...CLOSURE.packs, [pack!]: `sha256:${'2'.repeat(64)}` } },
      { ...CLOSURE, graphs: { ...CLOSURE.graphs, [sub!]: `sha256:${'3'.repeat(64)}` } },
      { ...CLOSURE, graphVersion: '9.9.9' },
    ];
    for (const c of others) expect(digest(c)).not.toBe(digest(CLOSURE));
  });

  it('covers only the members an entry records, so the rows a publish tested (testedRows) leave it unchanged', () => {
    const more: GraphClosure = { ...CLOSURE, testedRows: { digest: `sha256:${'4'.repeat(64)}`, cases: 3, passed: 3 } };
    expect(digest(more)).toBe(digest(CLOSURE));
  });

  it('is what a graph-run entry of that closure re-derives from its members alone', () => {
    const e = graphRunEntry() as unknown as Parameters<typeof entryClosure>[0];
    expect(entryClosure(e)).toEqual(CLOSURE);
    expect(entryClosureDigest(e)).toBe(digest(CLOSURE));
  });

  it('refuses a closure that is not a record, rather than naming it', () => {
    expect(closureDigest({ ...CLOSURE, graph: 'not a digest' }).ok).toBe(false);
  });
});
