/**
 * One admission decision (ADR 0335): the pipeline records exactly what `admit` decides, for every refusal code, and
 * replay re-runs the same function, so a refusal re-judged by replay is judged by the pipeline's own code.
 */
import { describe, expect, it } from 'vitest';
import { admit, readRequest, REFUSAL_STEP, stepOrder, type Admission } from '../../core/admission/index.js';
import { ADMISSION_STEPS } from '../../core/admission/admit.js';
import { MAX_REQUEST_BYTES, REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { buildEntry, parseStoredEntry, toStoredEntry } from '../../core/ledger/entries/entry.js';
import type { UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import { type RefusalCode } from '../../core/ledger/index.js';
import { REFUSAL_CODES } from '../../core/ledger/entries/entry-types.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import { replayContext } from '../../core/replay/replay-context.js';
import { replayStoredEntry } from '../../core/replay/replay-entry.js';
import { enc, example, exampleText, hex, request, world, type World } from '../replay/world.js';

const VENDOR = 'vendor-onboarding-target.json';

/** A pack whose two route targets carry 210,000-byte names: a requested handoff would echo both (ADR 0054). */
function publishTooLargePack(w: World): string {
  const pack = JSON.parse(new TextDecoder().decode(example('routes-all-filtered.json'))) as {
    escalation: { routes: { target: { name: string } }[] };
  };
  pack.escalation.routes.forEach((r, i) => (r.target.name = `${i}`.repeat(210_000)));
  const bytes = enc.encode(JSON.stringify(pack));
  w.packs.set(hex(bytes), bytes);
  return hex(bytes);
}

/** One request per refusal code, each built against a fresh world. */
const CASES: readonly [RefusalCode, (w: World) => Uint8Array][] = [
  ['request-malformed', () => enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"m-1","pack":"x"}`)],
  ['request-too-large', () => request('m-2', `sha256:${'0'.repeat(64)}`, `{"pad":"${'x'.repeat(MAX_REQUEST_BYTES)}"}`)],
  ['unsupported-request-format', () => enc.encode('{"format":"docket.evaluation-request/9","requestId":"m-3"}')],
  ['unknown-pack-alias', () => request('m-4', 'https://packs.example.org/nothing@1.0.0', '{}')],
  ['unknown-pack-digest', () => request('m-5', `sha256:${'0'.repeat(64)}`, '{}')],
  ['work-budget-out-of-range', (w) => request('m-6', `sha256:${w.publish(VENDOR)}`, '{}', ',"workBudget":2000000')],
  ['entry-would-not-fit', (w) => request('m-7', `sha256:${publishTooLargePack(w)}`, '{}')],
];

const refusalOf = (stored: StoredEntry): string | undefined => {
  const p = parseStoredEntry(stored.body);
  return p.ok && p.value.entry.kind === 'admission-refusal' ? p.value.entry.refusal.code : undefined;
};

describe('the admission decision', () => {
  it('has a case here for every refusal code but the graph requests’ own, so the next test covers the union', () => {
    // graphs-not-enabled, unknown-graph-* and graph-closure-mismatch are decided for graph requests only:
    // test/admission/admit-graph.test.ts; graph-unreadable by the pipeline for a graph its registry cannot serve:
    // test/pipeline/graph-run.test.ts.
    // pack-unreadable and alias-unreadable by the pipeline for an item its registry cannot serve (admission answers
    // with the item, below): test/pipeline/poison-pack.test.ts.
    const graphOnly = [
      'graphs-not-enabled',
      'unknown-graph-alias',
      'unknown-graph-digest',
      'graph-unreadable',
      'graph-closure-mismatch',
      'pack-unreadable',
      'alias-unreadable',
    ];
    expect(CASES.map(([code]) => code).sort()).toEqual(REFUSAL_CODES.filter((c) => !graphOnly.includes(c)).sort());
  });

  it.each(CASES)('decides %s, and the pipeline records exactly that refusal', async (code, make) => {
    const w = world();
    const bytes = make(w);
    const decided = await admit(readRequest(bytes), w.config, w.ports.packs);
    expect(decided.kind === 'refused' ? [decided.code, decided.step] : decided.kind).toEqual([
      code,
      REFUSAL_STEP[code],
    ]);
    expect(refusalOf(await w.submit(bytes))).toBe(code);
  });

  it('gives every refusal code a check, and the checks run in the documented order', () => {
    expect(Object.keys(REFUSAL_STEP).sort()).toEqual([...REFUSAL_CODES].sort());
    expect(ADMISSION_STEPS).toEqual(['request', 'feature', 'alias', 'digest', 'budget', 'fit']);
    expect(stepOrder('budget', 'fit')).toBeLessThan(0);
  });

  it('stops at the first check that refuses: a budget out of range is refused before the entry size is judged', async () => {
    const w = world();
    const d = publishTooLargePack(w);
    const decided = await admit(
      readRequest(request('m-8', `sha256:${d}`, '{}', ',"workBudget":0')),
      w.config,
      w.ports.packs,
    );
    expect(decided.kind === 'refused' ? decided.code : decided.kind).toBe('work-budget-out-of-range');
  });

  it('admits a valid request with the recorded digest, the compiled pack and the deployment default budget', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const decided = await admit(readRequest(request('m-9', `sha256:${d}`, '{}')), w.config, w.ports.packs);
    expect(decided.kind === 'admitted' ? [decided.digest, decided.workBudget, decided.pack.id] : decided).toEqual([
      d,
      w.config.defaultWorkBudget,
      (JSON.parse(exampleText(VENDOR)) as { id: string }).id,
    ]);
  });

  it('says pack-unreadable, not a refusal, when the registry cannot give the bytes it holds', async () => {
    const w = world();
    const registry = {
      resolveAlias: async () => null,
      load: async () => ({ status: 'unreadable' as const, reason: 'pack-digest-mismatch', detail: 'corrupt' }),
    };
    const decided: Admission<string> = await admit(
      readRequest(request('m-10', `sha256:${'1'.repeat(64)}`, '{}')),
      w.config,
      registry,
    );
    expect(decided).toEqual({
      kind: 'pack-unreadable',
      step: 'digest',
      digest: '1'.repeat(64),
      reason: 'pack-digest-mismatch',
      detail: 'corrupt',
    });
  });

  it('says alias-unreadable, at the alias step, when the registry holds the alias but no valid digest under it', async () => {
    const w = world();
    w.aliases.set('refund-check@1.0.0', 'not-a-digest');
    const decided = await admit(readRequest(request('m-13', 'refund-check@1.0.0', '{}')), w.config, w.ports.packs);
    expect(decided).toEqual({
      kind: 'alias-unreadable',
      step: 'alias',
      alias: 'refund-check@1.0.0',
      reason: 'registry-integrity',
      detail: 'alias refund-check@1.0.0 holds no valid digest',
    });
  });

  it('records a stored pack that no longer validates as an evaluation error, not a refusal', async () => {
    const w = world();
    const bytes = enc.encode('{"specVersion":"0.3.0"}');
    w.packs.set(hex(bytes), bytes);
    const decided = await admit(readRequest(request('m-11', `sha256:${hex(bytes)}`, '{}')), w.config, w.ports.packs);
    expect(decided.kind).toBe('pack-not-conformant');
  });
});

describe('replay runs the same decision', () => {
  it('reports a mismatch when a refusal at a later check is recorded for a budget no deployment admits, re-signed', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('m-12', `sha256:${d}`, '{}', ',"workBudget":-5'));
    expect(refusalOf(stored)).toBe('work-budget-out-of-range');
    const p = parseStoredEntry(stored.body);
    if (!p.ok) throw new Error(p.error.detail);
    const { signature: _s, ...unsigned } = p.value.entry;
    const forged = toStoredEntry(
      buildEntry(
        { ...unsigned, refusal: { code: 'entry-would-not-fit', message: 'forged' } } as UnsignedEntry,
        w.signer,
      ),
    );
    const o = await replayStoredEntry(forged, replayContext(w.options()));
    expect(o.result).toBe('replay-mismatch');
    expect(o.differs).toEqual([
      { member: 'refusal.code', recorded: 'entry-would-not-fit', replayed: 'work-budget-out-of-range' },
    ]);
  });
});
