import { describe, expect, it } from 'vitest';
import { buildEntry, parseStoredEntry, toStoredEntry } from '../../core/ledger/entries/entry.js';
import type { UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import { replayContext } from '../../core/replay/replay-context.js';
import { replayStoredEntry } from '../../core/replay/replay-entry.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import { MAX_REQUEST_BYTES, REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { enc, example, hex, request, world, type World } from './world.js';

const VENDOR = 'vendor-onboarding-target.json';
const ALIAS = 'https://packs.example.org/procurement/vendor-onboarding@2.1.0';

function refusalCode(stored: StoredEntry): string | undefined {
  const p = parseStoredEntry(stored.body);
  return p.ok && p.value.entry.kind === 'admission-refusal' ? p.value.entry.refusal.code : undefined;
}

/** The refusal entry re-signed with another refusal code, as a forger holding the key would. */
function resignRefusal(w: World, stored: StoredEntry, code: string): StoredEntry {
  const p = parseStoredEntry(stored.body);
  if (!p.ok || p.value.entry.kind !== 'admission-refusal') throw new Error('not a refusal');
  const { signature: _s, ...unsigned } = p.value.entry;
  return toStoredEntry(buildEntry({ ...unsigned, refusal: { code, message: 'forged' } } as UnsignedEntry, w.signer));
}

const replay = (w: World, stored: StoredEntry, o: Parameters<World['options']>[0] = {}) =>
  replayStoredEntry(stored, replayContext(w.options(o)));

describe('replaying admission refusals (ADR 0101)', () => {
  it('matches a malformed-request refusal by re-reading the retained bytes with the pipeline’s reader', async () => {
    const w = world();
    const stored = await w.submit(enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"r-1","pack":"x"}`));
    expect(refusalCode(stored)).toBe('request-malformed');
    const o = await replay(w, stored);
    expect([o.kind, o.result]).toEqual(['admission-refusal', 'replay-match']);
    expect(o.work).toEqual({ recorded: 0, replayed: 0 });
  });

  it('matches an unknown-pack-digest refusal while the pack is still unpublished', async () => {
    const w = world();
    const d = hex(example(VENDOR));
    const stored = await w.submit(request('r-2', `sha256:${d}`, '{}'));
    expect(refusalCode(stored)).toBe('unknown-pack-digest');
    expect((await replay(w, stored)).result).toBe('replay-match');
  });

  it('says registry-state-changed for an unknown-pack-digest refusal once that pack has been published', async () => {
    const w = world();
    const d = hex(example(VENDOR));
    const stored = await w.submit(request('r-3', `sha256:${d}`, '{}'));
    w.publish(VENDOR);
    const o = await replay(w, stored);
    expect([o.result, o.reason]).toEqual(['not-replayable', 'registry-state-changed']);
  });

  it('matches an unknown-alias refusal while unresolved and says registry-state-changed once the alias exists', async () => {
    const w = world();
    const stored = await w.submit(request('r-4', ALIAS, '{}'));
    expect(refusalCode(stored)).toBe('unknown-pack-alias');
    expect((await replay(w, stored)).result).toBe('replay-match');
    w.publish(VENDOR);
    expect((await replay(w, stored)).reason).toBe('registry-state-changed');
  });

  it('matches a budget refusal beyond the evaluator’s own maximum without knowing the deployment', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('r-5', `sha256:${d}`, '{}', ',"workBudget":200000000'));
    expect(refusalCode(stored)).toBe('work-budget-out-of-range');
    expect((await replay(w, stored)).result).toBe('replay-match');
  });

  it('judges a budget refusal under the deployment maximum only when that maximum is supplied', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('r-6', `sha256:${d}`, '{}', ',"workBudget":2000000'));
    expect(refusalCode(stored)).toBe('work-budget-out-of-range');
    const unknown = await replay(w, stored);
    expect([unknown.result, unknown.reason]).toEqual(['not-replayable', 'refusal-depends-on-deployment']);
    expect((await replay(w, stored, { maxWorkBudget: 1_000_000 })).result).toBe('replay-match');
    const admitted = await replay(w, stored, { maxWorkBudget: 5_000_000 });
    expect(admitted.result).toBe('replay-mismatch');
    expect(admitted.differs?.[0]).toEqual({
      member: 'refusal.code',
      recorded: 'work-budget-out-of-range',
      replayed: null,
    });
  });

  it('says request-not-retained for a request-too-large refusal, whose bytes the pipeline never keeps', async () => {
    const w = world();
    const big = request('r-7', `sha256:${'0'.repeat(64)}`, `{"pad":"${'x'.repeat(MAX_REQUEST_BYTES)}"}`);
    const stored = await w.submit(big);
    expect(refusalCode(stored)).toBe('request-too-large');
    expect(w.archive.size).toBe(0);
    const o = await replay(w, stored);
    expect([o.result, o.reason]).toEqual(['not-replayable', 'request-not-retained']);
  });

  it('matches an entry-would-not-fit refusal by re-running the worst-case entry arithmetic over the recorded log', async () => {
    const w = world();
    // Two route targets with 210,000-byte names: a requested handoff would echo both (the pipeline's own test case).
    const pack = JSON.parse(new TextDecoder().decode(example('routes-all-filtered.json'))) as {
      escalation: { routes: { target: { name: string } }[] };
    };
    pack.escalation.routes.forEach((r, i) => (r.target.name = `${i}`.repeat(210_000)));
    const bytes = enc.encode(JSON.stringify(pack));
    w.packs.set(hex(bytes), bytes);
    const stored = await w.submit(request('r-9', `sha256:${hex(bytes)}`, '{}'));
    expect(refusalCode(stored)).toBe('entry-would-not-fit');
    expect((await replay(w, stored)).result).toBe('replay-match');
  });

  it('reports a mismatch when a refusal entry names another refusal code than the request earns, re-signed', async () => {
    const w = world();
    const stored = await w.submit(enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"r-10","pack":"x"}`));
    const p = parseStoredEntry(stored.body);
    if (!p.ok) throw new Error(p.error.detail);
    const { signature: _s, ...unsigned } = p.value.entry;
    const forged = toStoredEntry(
      buildEntry(
        { ...unsigned, refusal: { code: 'unsupported-request-format', message: 'forged' } } as UnsignedEntry,
        w.signer,
      ),
    );
    const o = await replay(w, forged);
    expect(o.result).toBe('replay-mismatch');
    expect(o.differs).toEqual([
      { member: 'refusal.code', recorded: 'unsupported-request-format', replayed: 'request-malformed' },
    ]);
  });

  it('says refusal-depends-on-deployment for an entry-would-not-fit refusal that fits over its own log', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('r-11', `sha256:${d}`, '{}', ',"workBudget":200000000'));
    const forged = resignRefusal(w, stored, 'entry-would-not-fit');
    const o = await replay(w, forged);
    expect([o.result, o.reason]).toEqual(['not-replayable', 'refusal-depends-on-deployment']);
  });

  it('reports a mismatch when a valid request is recorded as malformed, re-signed', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('r-12', `sha256:${d}`, '{}', ',"workBudget":200000000'));
    const o = await replay(w, resignRefusal(w, stored, 'request-malformed'));
    expect(o.result).toBe('replay-mismatch');
    expect(o.differs?.[0]).toEqual({ member: 'refusal.code', recorded: 'request-malformed', replayed: null });
  });

  it('says request-purged for a purged refusal of any other kind', async () => {
    const w = world();
    const stored = await w.submit(request('r-8', `sha256:${'0'.repeat(64)}`, '{}'));
    w.archive.clear();
    expect((await replay(w, stored)).reason).toBe('request-purged');
  });
});
