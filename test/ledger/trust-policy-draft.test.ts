import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import entrySchema from '../../schema/ledger-entry.schema.json' with { type: 'json' };
import policySchema from '../../schema/trust-policy.schema.json' with { type: 'json' };
import { sha256Hex, utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { checkpointLog } from '../../core/ledger/write/checkpoint-writer.js';
import { buildEntry, toStoredEntry } from '../../core/ledger/entries/entry.js';
import { ENTRY_FORMAT_V2 } from '../../core/ledger/entries/entry-types.js';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { buildReceipt } from '../../core/ledger/receipts/receipt-build.js';
import { verifyReceipt } from '../../core/ledger/receipts/receipt-verify.js';
import { draftFeaturesAllowed, readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { checkEntry } from '../../core/ledger/verify/entry-status.js';
import { CHECKPOINT_SIGNER, dispositionEntry, policyV2, policyV3, policyV3Text, SIGNER } from './fixtures.js';

const Q = 'rfc0008-quantifiers';
const read = (text: string) => readTrustPolicy(utf8Bytes(text));
const ajv = new Ajv2020Module.default({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
addFormatsModule.default(ajv, ['date-time']);

/** A /2 entry for log-a 0 recording `features`, as stored. */
const storedV2 = (features: readonly string[] = [Q], logId = 'log-a') =>
  toStoredEntry(buildEntry(dispositionEntry({ format: ENTRY_FORMAT_V2, draftFeatures: [...features], logId }), SIGNER));

describe('trust policy /3: draft features permitted per log', () => {
  it('reads the per-log allow-lists, and /1 and /2 policies (which have none) are still read', () => {
    const p = policyV3([{ logId: 'log-a', allow: [Q] }]);
    expect(p.format).toBe('docket.trust-policy/3');
    expect(p.draftFeatures).toEqual([{ logId: 'log-a', allow: [Q] }]);
    expect(policyV2().draftFeatures).toBeUndefined();
  });

  const bad: [string, unknown][] = [
    ['a log it does not list', [{ logId: 'log-z', allow: [Q] }]],
    [
      'a log named twice',
      [
        { logId: 'log-a', allow: [Q] },
        { logId: 'log-a', allow: ['x'] },
      ],
    ],
    ['an empty allow-list', [{ logId: 'log-a', allow: [] }]],
    ['a feature twice', [{ logId: 'log-a', allow: [Q, Q] }]],
    ['an upper-case feature', [{ logId: 'log-a', allow: ['RFC0008'] }]],
    ['an extra member', [{ logId: 'log-a', allow: [Q], note: 'x' }]],
    ['an object instead of a list', { 'log-a': [Q] }],
  ];
  for (const [what, draftFeatures] of bad) {
    it(`refuses a /3 policy with ${what}`, () => {
      const r = read(policyV3Text(draftFeatures as never));
      expect(r.ok ? 'ok' : r.error.code).toBe('trust-policy-invalid');
    });
  }

  it('refuses a /3 policy without the member and a /2 policy with it', () => {
    const v3 = JSON.parse(policyV3Text([])) as Record<string, unknown>;
    const { draftFeatures: _d, ...without } = v3;
    expect(read(JSON.stringify(without)).ok).toBe(false);
    expect(read(JSON.stringify({ ...v3, format: 'docket.trust-policy/2' })).ok).toBe(false);
  });

  it('permits what the log lists, forbids by default, and always permits an entry that records none', () => {
    const p = policyV3([{ logId: 'log-a', allow: [Q] }]);
    expect(draftFeaturesAllowed(p, 'log-a', 0, [Q])).toBe(true);
    expect(draftFeaturesAllowed(p, 'log-b', 0, [Q])).toBe(false);
    expect(draftFeaturesAllowed(p, 'log-a', 0, [Q, 'rfc9999-future'])).toBe(false);
    expect(draftFeaturesAllowed(policyV2(), 'log-a', 0, [Q])).toBe(false);
    expect(draftFeaturesAllowed(policyV2(), 'log-a', 0, undefined)).toBe(true);
  });

  it('verify gives a sound /2 entry draft-features-not-allowed under a forbidding policy and ok under a permitting one', () => {
    const stored = storedV2();
    expect(checkEntry(stored, policyV3([{ logId: 'log-a', allow: [Q] }]), true).status).toBe('ok');
    expect(checkEntry(stored, policyV3([{ logId: 'log-b', allow: [Q] }]), true).status).toBe(
      'draft-features-not-allowed',
    );
    expect(checkEntry(stored, policyV2(), true).status).toBe('draft-features-not-allowed');
  });

  it('a receipt of a /2 entry reports draft-features-not-allowed under a forbidding policy', async () => {
    const store = new MemoryLedgerStore();
    const permitting = policyV3([{ logId: 'log-a', allow: [Q] }]);
    const e = buildEntry(
      dispositionEntry({ format: ENTRY_FORMAT_V2, draftFeatures: [Q], logId: 'log-a', requestDigest: sha256Hex('r') }),
      SIGNER,
    );
    await store.putEntryIfAbsent(toStoredEntry(e));
    await store.putPositionIfAbsent({ requestId: 'req-1', logId: 'log-a', seq: 0 });
    const origin = { environment: 'test', table: 'docket-ledger' };
    const w = await checkpointLog(store, 'log-a', {
      signer: CHECKPOINT_SIGNER,
      policy: permitting,
      origin,
      time: '2026-12-03T09:00:00Z',
    });
    expect(w.status).toBe('written');
    const r = await buildReceipt(store, 'req-1');
    if (!r.ok) throw new Error(r.error.detail);
    expect(verifyReceipt(r.value, permitting)).toEqual({ ok: true, findings: [] });
    expect(verifyReceipt(r.value, policyV2())).toEqual({
      ok: false,
      findings: [{ code: 'draft-features-not-allowed' }],
    });
  });

  it('the checkpoint writer refuses to vouch for a /2 entry its policy forbids', async () => {
    const store = new MemoryLedgerStore();
    await store.putEntryIfAbsent(storedV2());
    const w = await checkpointLog(store, 'log-a', {
      signer: CHECKPOINT_SIGNER,
      policy: policyV2(),
      origin: { environment: 'test', table: 'docket-ledger' },
      time: '2026-12-03T09:00:00Z',
    });
    expect(w.status).toBe('refused');
  });

  it('the published schemas accept a /3 policy and a /2 entry, and refuse the member on the wrong version', () => {
    const policyValid = ajv.compile(policySchema);
    const entryValid = ajv.compile(entrySchema);
    const p = JSON.parse(policyV3Text([{ logId: 'log-a', allow: [Q] }])) as Record<string, unknown>;
    expect(policyValid(p), JSON.stringify(policyValid.errors)).toBe(true);
    expect(policyValid({ ...p, format: 'docket.trust-policy/2' })).toBe(false);
    const e = JSON.parse(storedV2().body) as Record<string, unknown>;
    expect(entryValid(e), JSON.stringify(entryValid.errors)).toBe(true);
    expect(entryValid({ ...e, format: 'docket.ledger-entry/1' })).toBe(false);
    expect(entryValid({ ...e, draftFeatures: [] })).toBe(false);
  });
});
