/**
 * A registry item the pipeline cannot serve is a recorded refusal, never a retried throw
 * (docs/adr/0485-a-poison-pack-is-a-recorded-refusal.md): a pack item whose bytes do not hash to its digest is
 * `pack-unreadable`, an alias item with no valid digest `alias-unreadable`. The entry is written by the real pipeline
 * (test/replay/world.ts, whose registry refuses such items as the DynamoDB adapter does), delivered by the deliver
 * function's fan-out, and replayed by `docket replay`'s code.
 */
import { describe, expect, it } from 'vitest';
import { buildEntry, parseStoredEntry, toStoredEntry } from '../../core/ledger/entries/entry.js';
import type { SignedEntry, UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import { recordedFromStored } from '../../core/pipeline/ledger-writer.js';
import { readResultNotification } from '../../core/pipeline/result-notification.js';
import { replayContext } from '../../core/replay/replay-context.js';
import { replayStoredEntry } from '../../core/replay/replay-entry.js';
import { enc, example, request, world, type World } from '../replay/world.js';
import { owed } from './memory-pipeline-fixture.js';

const VENDOR = 'vendor-onboarding-target.json';
const FACTS = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
const ALIAS = 'https://packs.example.org/procurement/vendor-onboarding@2.1.0';

const entryOf = (stored: StoredEntry): SignedEntry => {
  const p = parseStoredEntry(stored.body);
  if (!p.ok) throw new Error(p.error.detail);
  return p.value.entry;
};
const replay = (w: World, stored: StoredEntry) => replayStoredEntry(stored, replayContext(w.options()));

/** A world whose published vendor pack's item now holds other bytes under its digest (a plain PutItem's doing). */
function poisonedPack(): { w: World; digest: string } {
  const w = world();
  const digest = w.publish(VENDOR);
  w.packs.set(digest, enc.encode('{"id":"other"}'));
  return { w, digest };
}

describe('a pack item whose bytes do not hash to its digest', () => {
  it('is recorded at once as the refusal pack-unreadable, naming the digest, with a message of the digest alone', async () => {
    const { w, digest } = poisonedPack();
    const e = entryOf(await w.submit(request('poison-1', `sha256:${digest}`, FACTS)));
    expect(e).toMatchObject({
      kind: 'admission-refusal',
      pack: { digest },
      specVersion: null,
      factsDigest: null,
      work: 0,
      refusal: {
        code: 'pack-unreadable',
        message: `pack sha256:${digest} is in the registry but its item does not hold bytes that hash to the digest: it cannot be read`,
      },
    });
  });

  it('is recorded the same when the request names the pack by its alias', async () => {
    const { w, digest } = poisonedPack();
    const e = entryOf(await w.submit(request('poison-2', ALIAS, FACTS)));
    expect(e.kind === 'admission-refusal' && [e.refusal.code, e.pack]).toEqual(['pack-unreadable', { digest }]);
  });

  it('owes its requester a notification that says pack-unreadable, in the signed entry and the filter attribute, and no handoff', async () => {
    const { w } = poisonedPack();
    const stored = await w.submit(request('poison-3', ALIAS, FACTS));
    const o = await owed(recordedFromStored(stored), w.ports.packs);
    expect(o.handoffs).toEqual([]);
    expect(o.notification.attributes.refusalCode).toBe('pack-unreadable');
    const read = readResultNotification(enc.encode(o.notification.body));
    const carried = read.ok ? read.value.entry?.entry : undefined;
    expect(carried?.kind === 'admission-refusal' && carried.refusal).toEqual(
      (entryOf(stored) as Extract<SignedEntry, { kind: 'admission-refusal' }>).refusal,
    );
  });

  it('is not cached: once the item is put back, the next request for the digest is evaluated', async () => {
    const { w, digest } = poisonedPack();
    await w.submit(request('poison-4', `sha256:${digest}`, FACTS));
    w.packs.set(digest, example(VENDOR));
    expect(entryOf(await w.submit(request('after-4', `sha256:${digest}`, FACTS))).kind).toBe('disposition');
  });

  it('replays as a match while the item is still unreadable, and as registry-state-changed once it is put back', async () => {
    const { w, digest } = poisonedPack();
    const stored = await w.submit(request('poison-5', `sha256:${digest}`, FACTS));
    expect((await replay(w, stored)).result).toBe('replay-match');
    w.packs.set(digest, example(VENDOR));
    expect(await replay(w, stored)).toMatchObject({ result: 'not-replayable', reason: 'registry-state-changed' });
  });

  it('replays a re-signed entry whose message was changed as a mismatch on the message, byte for byte', async () => {
    const { w, digest } = poisonedPack();
    const stored = await w.submit(request('poison-6', `sha256:${digest}`, FACTS));
    const { signature: _s, ...unsigned } = entryOf(stored) as Extract<SignedEntry, { kind: 'admission-refusal' }>;
    const message = `${unsigned.refusal.message} `;
    const forged = toStoredEntry(
      buildEntry({ ...unsigned, refusal: { code: 'pack-unreadable', message } } as UnsignedEntry, w.signer),
    );
    expect((await replay(w, forged)).differs).toEqual([
      { member: 'refusal.message', recorded: message, replayed: unsigned.refusal.message },
    ]);
  });
});

describe('an alias item that holds no valid digest', () => {
  it('is recorded at once as the refusal alias-unreadable, naming the alias and no pack', async () => {
    const w = world();
    w.publish(VENDOR);
    w.aliases.set(ALIAS, 'sha256:not-hex');
    const e = entryOf(await w.submit(request('alias-1', ALIAS, FACTS)));
    expect(e).toMatchObject({
      kind: 'admission-refusal',
      pack: null,
      refusal: {
        code: 'alias-unreadable',
        message: `pack alias ${ALIAS} is in the registry but its item holds no valid digest: it cannot be read`,
      },
    });
  });

  it('replays as a match while the alias is unreadable, and as registry-state-changed once it is put back', async () => {
    const w = world();
    const digest = w.publish(VENDOR);
    w.aliases.set(ALIAS, '');
    const stored = await w.submit(request('alias-2', ALIAS, FACTS));
    expect((await replay(w, stored)).result).toBe('replay-match');
    w.aliases.set(ALIAS, digest);
    expect(await replay(w, stored)).toMatchObject({ result: 'not-replayable', reason: 'registry-state-changed' });
  });
});
