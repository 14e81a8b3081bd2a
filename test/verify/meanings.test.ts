/**
 * One meaning per pack or graph id@version across the ledger (ADR 0450): what verify holds a rebound registry to.
 */
import { describe, expect, it } from 'vitest';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';
import { Meanings, meaningOf, recordsRewrittenRegistry } from '../../core/ledger/verify/meanings.js';
import { graphRunEntry } from '../ledger/graph-run-fixtures.js';

const run = (over: Record<string, unknown> = {}) => graphRunEntry(over) as unknown as SignedEntry;
const GRAPH = run() as Extract<SignedEntry, { kind: 'graph-run' }>;
const NAME = `graph ${GRAPH.graph.id}@${GRAPH.graph.version}`;

describe('the meanings a ledger records', () => {
  it('takes the first graph run as the meaning of its id@version and accepts the same closed set again', () => {
    const m = new Meanings();
    expect(m.rebound(run(), 'log-a', 0)).toBeUndefined();
    expect(m.rebound(run({ requestId: 'again' }), 'log-b', 4)).toBeUndefined();
  });

  it('names the first occurrence when a later run records a member pin, subgraph or document of another graph', () => {
    const pack = Object.keys(GRAPH.packs)[0]!;
    const sub = Object.keys(GRAPH.graphs)[0]!;
    for (const changed of [
      { packs: { ...GRAPH.packs, [pack]: 'c'.repeat(64) } },
      { graphs: { ...GRAPH.graphs, [sub]: 'd'.repeat(64) } },
      { graph: { ...GRAPH.graph, digest: 'e'.repeat(64) } },
    ]) {
      const m = new Meanings();
      m.rebound(run(), 'log-a', 3);
      expect(m.rebound(run(changed), 'log-b', 7)).toEqual({ name: NAME, logId: 'log-a', seq: 3 });
    }
  });

  it('reads a pack by id@version and digest, and no meaning from a refusal that names none', () => {
    const e = { kind: 'disposition', pack: { id: 'refund-check', version: '1.0.0', digest: 'a'.repeat(64) } };
    expect(meaningOf(e as unknown as SignedEntry)).toEqual({
      name: 'pack refund-check@1.0.0',
      meaning: 'a'.repeat(64),
    });
    expect(meaningOf({ kind: 'admission-refusal', pack: { digest: 'a'.repeat(64) } } as unknown as SignedEntry)).toBe(
      undefined,
    );
    expect(meaningOf({ kind: 'admission-refusal', pack: null } as unknown as SignedEntry)).toBeUndefined();
  });

  it('takes a closure-mismatch, pack-unreadable or alias-unreadable refusal as evidence of a rewritten registry, and no other refusal', () => {
    const refusal = (code: string) => ({ kind: 'admission-refusal', pack: null, refusal: { code, message: 'm' } });
    for (const code of ['graph-closure-mismatch', 'pack-unreadable', 'alias-unreadable'])
      expect(recordsRewrittenRegistry(refusal(code) as unknown as SignedEntry), code).toBe(true);
    for (const code of ['unknown-graph-digest', 'unknown-pack-digest', 'unknown-pack-alias', 'graph-unreadable'])
      expect(recordsRewrittenRegistry(refusal(code) as unknown as SignedEntry), code).toBe(false);
    expect(recordsRewrittenRegistry(run())).toBe(false);
  });
});
