import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildEntry, parseStoredEntry, toStoredEntry } from '../../core/ledger/entries/entry.js';
import type { SignedEntry, UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import { readLedgerExport } from '../../core/ledger/export/export.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { replayContext } from '../../core/replay/replay-context.js';
import { replayStoredEntry } from '../../core/replay/replay-entry.js';
import { type ReplayOptions } from '../../core/replay/types.js';
import { hex, request, world, type World } from './world.js';

const Q = 'rfc0008-quantifiers';
const PACK = new Uint8Array(
  readFileSync(new URL('../../conformance/rfc0008/evaluation/packs/q-exists-ok.json', import.meta.url)),
);
const FACTS = '{"xs":[{"ok":false},{"ok":true},{"ok":false}]}';
const replay = (stored: StoredEntry, options: ReplayOptions) => replayStoredEntry(stored, replayContext(options));

function entryOf(stored: StoredEntry): SignedEntry {
  const p = parseStoredEntry(stored.body);
  if (!p.ok) throw new Error(p.error.detail);
  return p.value.entry;
}

/** The entry with `change` applied, re-signed with the world's entry key (a key holder, not a table writer). */
function resign(w: World, stored: StoredEntry, change: (e: Record<string, unknown>) => void): StoredEntry {
  const { signature: _s, ...unsigned } = entryOf(stored) as SignedEntry & Record<string, unknown>;
  const copy = JSON.parse(JSON.stringify(unsigned)) as Record<string, unknown>;
  change(copy);
  return toStoredEntry(buildEntry(copy as unknown as UnsignedEntry, w.signer));
}

async function quantifierEntry(w: World, id = 'q-1'): Promise<StoredEntry> {
  w.packs.set(hex(PACK), PACK);
  return w.submit(request(id, `sha256:${hex(PACK)}`, FACTS));
}

describe('replaying entries that record draft features', () => {
  it('replays a /2 disposition under exactly the recorded features: a match, work included', async () => {
    const w = world({ draftFeatures: [Q] });
    const stored = await quantifierEntry(w);
    expect(entryOf(stored)).toMatchObject({ format: 'docket.ledger-entry/2', draftFeatures: [Q], kind: 'disposition' });
    const o = await replay(stored, w.options());
    expect(o.result).toBe('replay-match');
    expect(o.work?.replayed).toBe(o.work?.recorded);
  });

  it('replays a /1 entry with no draft feature: the quantifier pack is the recorded pack-not-conformant error', async () => {
    const w = world();
    const stored = await quantifierEntry(w);
    const e = entryOf(stored);
    expect(e.kind === 'evaluation-error' && e.error.class).toBe('pack-not-conformant');
    expect((await replay(stored, w.options())).result).toBe('replay-match');
  });

  it('the features come from the entry, not the replayer: a /2 disposition re-signed as /1 no longer replays', async () => {
    const w = world({ draftFeatures: [Q] });
    const downgraded = resign(w, await quantifierEntry(w), (e) => {
      e.format = 'docket.ledger-entry/1';
      delete e.draftFeatures;
    });
    const o = await replay(downgraded, w.options());
    expect(o.result).toBe('replay-mismatch');
    expect(o.differs?.[0]).toMatchObject({ member: 'kind', recorded: 'disposition', replayed: 'evaluation-error' });
  });

  it('reports not-replayable, naming the feature, when the entry records one this evaluator does not implement', async () => {
    const w = world({ draftFeatures: [Q] });
    const future = resign(w, await quantifierEntry(w), (e) => {
      e.draftFeatures = [Q, 'rfc9999-future'];
    });
    const policy = { ...w.policy, draftFeatures: [{ logId: future.logId, allow: [Q, 'rfc9999-future'] }] };
    const o = await replay(future, w.options({ policy }));
    expect(o).toMatchObject({ result: 'not-replayable', reason: 'draft-feature-unknown' });
    expect(o.detail).toMatch(/draft feature rfc9999-future, which this evaluator does not implement/);
  });

  it('an entry whose features the policy forbids is not replayed: it fails verification first', async () => {
    const w = world({ draftFeatures: [Q] });
    const stored = await quantifierEntry(w);
    const { draftFeatures: _permitted, ...forbidding } = w.policy;
    const o = await replay(stored, w.options({ policy: { ...forbidding, format: 'docket.trust-policy/1' } }));
    expect(o).toMatchObject({
      result: 'not-replayable',
      reason: 'entry-fails-verification',
      detail: 'draft-features-not-allowed',
    });
  });

  it('re-judges a refusal of an opted-in deployment under its recorded features (an unknown pack digest)', async () => {
    const w = world({ draftFeatures: [Q] });
    const stored = await w.submit(request('r-1', `sha256:${'f'.repeat(64)}`, '{}'));
    expect(entryOf(stored)).toMatchObject({ kind: 'admission-refusal', draftFeatures: [Q] });
    expect((await replay(stored, w.options())).result).toBe('replay-match');
  });
});

describe('the frozen corpus scenario draft-features-unknown-to-this-evaluator, replayed', () => {
  it('verifies under its policy, and replay reports it not-replayable (draft-feature-unknown) before fetching anything', async () => {
    const dir = new URL(
      '../../conformance/ledger/scenarios/draft-features-unknown-to-this-evaluator/',
      import.meta.url,
    );
    const exported = readLedgerExport(new Uint8Array(readFileSync(new URL('ledger.jsonl', dir))));
    const policy = readTrustPolicy(new Uint8Array(readFileSync(new URL('policy.json', dir))));
    if (!exported.ok || !policy.ok) throw new Error('the frozen scenario no longer reads');
    const entry = exported.value.entries.find((e) => e.logId === 'log-a' && e.seq === 6)!;
    const nothing = async () => {
      throw new Error('replay fetched bytes for an entry it cannot replay');
    };
    const o = await replay(entry, {
      policy: policy.value,
      fetch: { requestBytes: nothing, packBytes: nothing, resolveAlias: nothing },
      evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: 'c'.repeat(64) },
      acrossEvaluators: true,
    });
    expect(o).toMatchObject({ result: 'not-replayable', reason: 'draft-feature-unknown' });
    expect(o.detail).toContain('rfc9999-future');
  });
});
