/**
 * A trust policy that remembers (ADR 0462; core/ledger/trust-policy/draft-feature-history.ts): format /5 gives each
 * draft-feature permit a seq range, and a regenerated policy keeps, for the seqs already written, every permit an
 * earlier one gave there, while a new permit starts at each log's next seq. The local stack's sequence — a run with
 * judgment graphs, then a plain run on the same data — verifies ok, and no policy change moves the past.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import policySchema from '../../schema/trust-policy.schema.json' with { type: 'json' };
import { utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { buildEntry, entryHashOf } from '../../core/ledger/entries/entry.js';
import { ENTRY_FORMAT_V2 } from '../../core/ledger/entries/entry-types.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { rememberedPermits } from '../../core/ledger/trust-policy/draft-feature-history.js';
import {
  draftFeaturesAllowed,
  readTrustPolicy,
  type DraftFeatureAllowance,
  type TrustPolicy,
} from '../../core/ledger/trust-policy/trust-policy.js';
import { storeSource, verifyLedger } from '../../core/ledger/verify/index.js';
import { trustPolicyDocument } from '../../stack/local-files.js';
import { CHECKPOINT_KEYS, dispositionEntry, KEYS, policyV3Text, SIGNER } from './fixtures.js';

const G = 'judgment-graphs';
const Q = 'rfc0008-quantifiers';
const LOGS = ['log-a', 'log-b'];

/** The local stack's policy for these permits, read back strictly (as `npm start` writes and verify reads it). */
function localPolicy(permits: readonly DraftFeatureAllowance[]): TrustPolicy {
  const text = trustPolicyDocument({
    keys: KEYS,
    checkpointKey: CHECKPOINT_KEYS,
    logIds: LOGS,
    environment: 'test',
    table: 'docket-ledger',
    evaluatorBuilds: [dispositionEntry().evaluator.buildDigest],
    permits,
  });
  lastPolicyText = text;
  const p = readTrustPolicy(utf8Bytes(text));
  if (!p.ok) throw new Error(p.error.detail);
  return p.value;
}
let lastPolicyText = '';

/** Appends an entry to log-a recording `features` (a /2 entry) or none. */
async function append(store: MemoryLedgerStore, features: readonly string[]): Promise<void> {
  const head = await store.readHead('log-a');
  const seq = head === null ? 0 : head.seq + 1;
  const { body, entryHash } = buildEntry(
    dispositionEntry({
      logId: 'log-a',
      seq,
      prevHash: head === null ? null : entryHashOf(head.body),
      requestId: `r-${seq}`,
      ...(features.length > 0 ? { format: ENTRY_FORMAT_V2, draftFeatures: [...features] } : {}),
    }),
    SIGNER,
  );
  await store.putEntryIfAbsent({
    logId: 'log-a',
    seq,
    body,
    projection: { requestId: `r-${seq}`, kind: 'disposition', entryHash },
  });
}

/** verify's findings but `unregistered-log` (these logs are never checkpointed here: that is not what is tested). */
const findings = async (store: MemoryLedgerStore, policy: TrustPolicy) => {
  const v = await verifyLedger(storeSource(store), policy, []);
  if (!v.ok) throw new Error(v.error.detail);
  return v.value.findings.filter((f) => f.code !== 'unregistered-log');
};

describe('a trust policy that remembers its draft-feature permits', () => {
  it('reads /5 ranges, permits a feature only at the seqs of a range that lists it, and refuses overlaps', () => {
    const v5 = (draftFeatures: unknown[]) =>
      readTrustPolicy(
        utf8Bytes(policyV3Text(draftFeatures as never).replace('docket.trust-policy/3', 'docket.trust-policy/5')),
      );
    const p = v5([
      { logId: 'log-a', fromSeq: 0, toSeq: 2, allow: [G] },
      { logId: 'log-a', fromSeq: 5, toSeq: null, allow: [Q] },
    ]);
    if (!p.ok) throw new Error(p.error.detail);
    const at = (seq: number, f: string) => draftFeaturesAllowed(p.value, 'log-a', seq, [f]);
    expect([at(0, G), at(2, G), at(3, G), at(5, G)]).toEqual([true, true, false, false]);
    expect([at(4, Q), at(5, Q), at(9_000, Q), draftFeaturesAllowed(p.value, 'log-b', 0, [G])]).toEqual([
      false,
      true,
      true,
      false,
    ]);
    for (const bad of [
      [
        { logId: 'log-a', fromSeq: 0, toSeq: 5, allow: [G] },
        { logId: 'log-a', fromSeq: 5, toSeq: null, allow: [Q] },
      ],
      [{ logId: 'log-a', fromSeq: 3, toSeq: 2, allow: [G] }],
      [{ logId: 'log-a', allow: [G] }],
    ]) {
      const r = v5(bad);
      expect(r.ok ? 'ok' : r.error.code, JSON.stringify(bad)).toBe('trust-policy-invalid');
    }
  });

  it('verifies ok after a graphs run then a plain run on the same data, and refuses the feature past its permit', async () => {
    const store = new MemoryLedgerStore();
    // `npm start -- --graphs` on an empty ledger: graphs permitted from seq 0; three entries record it.
    const graphsRun = localPolicy(rememberedPermits([], LOGS, new Map(), [G]));
    for (let i = 0; i < 3; i++) await append(store, [G]);
    expect(await findings(store, graphsRun)).toEqual([]);
    // Stop, then plain `npm start`: the regenerated policy permits nothing new, and remembers seqs 0–2.
    const plainRun = localPolicy(rememberedPermits(graphsRun.draftFeatures ?? [], LOGS, new Map([['log-a', 3]]), []));
    expect(plainRun.format).toBe('docket.trust-policy/5');
    const ajv = new Ajv2020Module.default({ strict: true, strictTypes: false, strictRequired: false });
    expect(ajv.validate(policySchema, JSON.parse(lastPolicyText)), ajv.errorsText()).toBe(true);
    expect(plainRun.draftFeatures).toEqual([{ logId: 'log-a', allow: [G], fromSeq: 0, toSeq: 2 }]);
    for (let i = 0; i < 2; i++) await append(store, []);
    expect(await findings(store, plainRun)).toEqual([]);
    // An entry recording the feature after its permit ended is refused: the history permits only what it says.
    await append(store, [G]);
    expect(await findings(store, plainRun)).toEqual([{ code: 'draft-features-not-allowed', logId: 'log-a', seq: 5 }]);
  });

  it('starts a new permit at each log’s next seq, never earlier, and keeps a continuing permit whole', () => {
    const earlier = [{ logId: 'log-a', allow: [G], fromSeq: 0, toSeq: 2 }];
    const written = new Map([
      ['log-a', 5],
      ['log-b', 1],
    ]);
    const on = rememberedPermits(earlier, LOGS, written, [Q]);
    expect(on).toEqual([
      { logId: 'log-a', allow: [G], fromSeq: 0, toSeq: 2 },
      { logId: 'log-a', allow: [Q], fromSeq: 5, toSeq: null },
      { logId: 'log-b', allow: [Q], fromSeq: 1, toSeq: null },
    ]);
    const p = localPolicy(on);
    // Seqs 3 and 4 were written while nothing was permitted: turning a feature on does not make them valid.
    expect([3, 4, 5].map((seq) => draftFeaturesAllowed(p, 'log-a', seq, [Q]))).toEqual([false, false, true]);
    // Restarting with the same features keeps the open permit as it is; turning them off cuts it at the seqs written.
    const later = new Map([
      ['log-a', 9],
      ['log-b', 1],
    ]);
    expect(rememberedPermits(on, LOGS, later, [Q])).toEqual(on);
    expect(rememberedPermits(on, LOGS, later, [])).toEqual([
      { logId: 'log-a', allow: [G], fromSeq: 0, toSeq: 2 },
      { logId: 'log-a', allow: [Q], fromSeq: 5, toSeq: 8 },
    ]);
  });
});
