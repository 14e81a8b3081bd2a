/**
 * Ledger entry format /3: one graph run per entry, kind `graph-run` (ADR 0360). One builder and one strict reader:
 * a round trip of a real run (the procurement-triage example), every invariant the reader adds, and the hostile
 * bodies a stored item could hold.
 */
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import {
  buildEntry,
  EntryInvariantError,
  entrySigningMessage,
  parseStoredEntry,
  verifyParsedEntrySignature,
} from '../../core/ledger/entries/entry.js';
import { ENTRY_FORMAT_V2, ENTRY_FORMAT_V3, entryFormatFor } from '../../core/ledger/entries/entry-types.js';
import { entryViolation } from '../../core/ledger/entries/entry-rules.js';
import { graphRunStatus } from '../../core/ledger/entries/graph-run-summary.js';
import { signEd25519 } from '../../core/ledger/primitives/signature.js';
import { toHex } from '../../core/ledger/primitives/bytes.js';
import { graphRunJson } from '../../core/graph/index.js';
import { dispositionEntry, KEYS, SIGNER } from './fixtures.js';
import { graphRunEntry, runExample } from './graph-run-fixtures.js';

const signedAnyway = (o: Record<string, unknown>): string => {
  const sig = toHex(signEd25519(entrySigningMessage(o as never), KEYS.secretKey));
  return canonicalize({ ...o, signature: sig }) as string;
};
const entry = (over: Record<string, unknown> = {}) => graphRunEntry(over) as unknown as Record<string, unknown>;
const readBack = (o: Record<string, unknown>) => parseStoredEntry(signedAnyway(o));

describe('ledger entry format /3 (graph runs)', () => {
  it('is the format of every graph run, and only of graph runs', () => {
    expect(entryFormatFor(['judgment-graphs'], 'graph-run')).toBe(ENTRY_FORMAT_V3);
    expect(entryFormatFor(undefined, 'graph-run')).toBe(ENTRY_FORMAT_V3);
    expect(entryFormatFor(['judgment-graphs'], 'admission-refusal')).toBe(ENTRY_FORMAT_V2);
  });

  it('builds a graph-run entry of a real run and reads it back: the run text is recovered byte for byte', () => {
    const run = runExample();
    expect(run.status).toBe('evaluated');
    const built = buildEntry(graphRunEntry(), SIGNER);
    const r = parseStoredEntry(built.body);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.entryHash).toBe(built.entryHash);
    expect(verifyParsedEntrySignature(r.value, KEYS.publicKey)).toBe(true);
    const e = r.value.entry;
    expect(e.kind).toBe('graph-run');
    if (e.kind !== 'graph-run') return;
    expect(e.run).toBe(graphRunJson(run));
    expect(e.format).toBe(ENTRY_FORMAT_V3);
    expect(Object.keys(e.packs).sort()).toEqual([
      'ofac-screening',
      'pep-screening',
      'procurement-decision',
      'risk-aggregator',
    ]);
    expect(Object.keys(e.graphs)).toEqual(['sanctions-screening']);
  });

  it('records a refused run too, with the work used before the refusal', () => {
    const run = runExample(3);
    expect(run.status).toBe('refused');
    const u = graphRunEntry({ run: graphRunJson(run), work: 3, workBudget: 3 }, 3);
    const r = parseStoredEntry(buildEntry(u, SIGNER).body);
    expect(r.ok).toBe(true);
    if (r.ok && r.value.entry.kind === 'graph-run') expect(graphRunStatus(r.value.entry.run)).toMatch(/^refused node /);
  });

  it('summarises the headline of an evaluated run', () => {
    const e = graphRunEntry() as { run: string };
    expect(graphRunStatus(e.run)).toMatch(/^evaluated (outcome|unresolved)/);
  });

  it.each([
    ['a graph run in format /2', { format: ENTRY_FORMAT_V2 }, /format docket\.ledger-entry\/3/],
    ['a disposition in format /3', null, /format docket\.ledger-entry\/3/],
    ['a missing run', { run: undefined }, /entry\.run is present/],
    ['an unknown member', { extra: 1 }, /no member "extra"/],
    ['a pack member', { pack: null }, /no member "pack"/],
    ['no judgment-graphs feature', { draftFeatures: ['rfc0008-quantifiers'] }, /judgment-graphs/],
    ['an empty feature list', { draftFeatures: [] }, /non-empty/],
    ['a short graph digest', { graph: { digest: 'ab', id: 'g', version: '1.0.0' } }, /graph\.digest/],
    ['a graph without a version', { graph: { digest: 'a'.repeat(64), id: 'g' } }, /digest, id and version/],
    ['no packs', { packs: {} }, /at least one pack/],
    ['a pack pinned to a non-digest', { packs: { a: 'sha256:x' } }, /64 lowercase hex/],
    ['a space in a pack name', { packs: { 'a b': 'a'.repeat(64) } }, /printable ASCII/],
    ['an inputs digest that is not one', { inputsDigest: 'x' }, /inputsDigest/],
    ['work over the budget', { work: 200_000 }, /at most its workBudget/],
    ['a zero budget', { workBudget: 0 }, /positive integer/],
  ])('refuses %s', (_name, over, why) => {
    const o: Record<string, unknown> =
      over === null ? { ...entry(), format: ENTRY_FORMAT_V3, kind: 'disposition' } : { ...entry(), ...over };
    if (over !== null && 'run' in over && (over as { run?: unknown }).run === undefined) delete o.run;
    expect(entryViolation(o, false)).toMatch(why);
    const r = readBack(o);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('malformed');
    expect(() => buildEntry(o as never, SIGNER)).toThrow(EntryInvariantError);
  });

  it('refuses a format /3 body holding a disposition, however well-formed its /1 members', () => {
    const d = { ...(dispositionEntry() as unknown as Record<string, unknown>), format: ENTRY_FORMAT_V3 };
    expect(entryViolation(d, false)).toMatch(/format docket.ledger-entry\/3/);
  });

  describe('the recorded run text is checked against the entry', () => {
    const run = JSON.parse(entry().run as string) as Record<string, unknown>;
    const withRun = (r: unknown, over: Record<string, unknown> = {}) => ({ ...entry(), ...over, run: r });
    it.each([
      ['spacing the contract never prints', JSON.stringify(run, null, 1), /exact text/],
      ['a duplicate member', (entry().run as string).replace('{"status"', '{"status":"refused","status"'), /exact/],
      ['not JSON', '{', /JSON text/],
      ['an array', '[]', /JSON object/],
      ['another status', JSON.stringify({ ...run, status: 'maybe' }), /evaluated or refused/],
      ['another graph digest', JSON.stringify({ ...run, graphDigest: `sha256:${'0'.repeat(64)}` }), /graphDigest/],
      ['another graph version', JSON.stringify({ ...run, graphVersion: '9.9.9' }), /graphVersion/],
      ['another budget', JSON.stringify({ ...run, work: { budget: 1, used: 1 } }), /work\.budget/],
      ['a leaf of a pack outside the closure', JSON.stringify({ ...run, nodes: [{ pack: 'x' }] }), /packs/],
      ['a subgraph outside the closure', JSON.stringify({ ...run, subgraphs: [{ subgraph: 'x' }] }), /graphs/],
      ['a refusal with a member too many', JSON.stringify({ status: 'refused', error: {}, more: 1 }), /exactly/],
    ])('refuses %s', (_n, text, why) => {
      const o = withRun(text);
      expect(entryViolation(o, false)).toMatch(why);
      expect(readBack(o).ok).toBe(false);
    });

    it('refuses work that is not the run’s', () => {
      expect(entryViolation({ ...entry(), work: 1 }, false)).toMatch(/work\.used/);
    });
  });

  it('is unsupported-version for a reader that knows /3 as its newest: /4 is never malformed', () => {
    const r = readBack({ ...entry(), format: 'docket.ledger-entry/4' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('unsupported-version');
  });

  it('keeps the signature cut at the top-level member, whatever names the closure holds', () => {
    const o = entry({
      graphs: {
        signature: 'b'.repeat(64),
        'sanctions-screening': (entry().graphs as Record<string, string>)['sanctions-screening'],
      },
    });
    // "signature" is not a subgraph of the run, but the name alone must not break the reader's signature cut.
    const r = parseStoredEntry(signedAnyway(o));
    expect(r.ok).toBe(true);
  });
});
