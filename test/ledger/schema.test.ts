import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import checkpointSchema from '../../schema/checkpoint.schema.json' with { type: 'json' };
import entrySchema from '../../schema/ledger-entry.schema.json' with { type: 'json' };
import policySchema from '../../schema/trust-policy.schema.json' with { type: 'json' };
import { toHex } from '../../core/ledger/primitives/bytes.js';
import { buildCheckpoint, CHECKPOINT_FORMAT } from '../../core/ledger/checkpoints/checkpoint.js';
import { buildEntry } from '../../core/ledger/entries/entry.js';
import { merkleRoot } from '../../core/ledger/checkpoints/merkle.js';
import { BUILD_DIGEST, dispositionEntry, errorEntry, KEYS, refusalEntry, SIGNER } from './fixtures.js';

const ajv = new Ajv2020Module.default({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
addFormatsModule.default(ajv, ['date-time']);
const entryValid = ajv.compile(entrySchema);
const checkpointValid = ajv.compile(checkpointSchema);
const policyValid = ajv.compile(policySchema);

describe('the published schemas', () => {
  it('accept every kind of entry the builder emits', () => {
    for (const u of [
      dispositionEntry(),
      errorEntry(),
      refusalEntry(),
      dispositionEntry({ seq: 5, prevHash: 'a'.repeat(64) }),
    ]) {
      const e = JSON.parse(buildEntry(u, SIGNER).body);
      expect(entryValid(e), JSON.stringify(entryValid.errors)).toBe(true);
    }
  });

  it('reject entries that break the rules the schema can express', () => {
    const e = JSON.parse(buildEntry(dispositionEntry(), SIGNER).body) as Record<string, unknown>;
    const r = JSON.parse(buildEntry(refusalEntry(), SIGNER).body) as Record<string, unknown>;
    const broken = [
      { ...e, extra: 1 },
      { ...e, seq: 1.5 },
      { ...e, prevHash: 'a'.repeat(64) },
      { ...e, seq: 1, prevHash: null },
      { ...e, kind: 'admission-refusal' },
      { ...e, pack: { digest: 'a'.repeat(64) } },
      { ...e, time: '2026-12-02T13:45:00+01:00' },
      { ...e, error: { class: 'malformed-input', phase: 'preflight', code: 'x', message: '' } },
      { ...r, work: 3 },
      { ...r, refusal: { code: 'nope', message: '' } },
    ];
    for (const b of broken) expect(entryValid(b)).toBe(false);
  });

  it('accept a built checkpoint and a valid trust policy, and reject altered ones', () => {
    const { body } = buildCheckpoint(
      {
        format: CHECKPOINT_FORMAT,
        logId: 'log-0',
        treeSize: 0,
        rootHash: toHex(merkleRoot([])),
        chainHead: null,
        keyId: KEYS.keyId,
        origin: { environment: 'prod', table: 'docket-ledger' },
        time: '2026-12-02T14:00:00Z',
        entriesVerified: true,
      },
      SIGNER,
    );
    const cp = JSON.parse(body) as Record<string, unknown>;
    expect(checkpointValid(cp)).toBe(true);
    expect(checkpointValid({ ...cp, rootHash: 'a'.repeat(64) })).toBe(false);
    expect(checkpointValid({ ...cp, origin: { environment: 'prod' } })).toBe(false);
    // entriesVerified belongs to format /2 (and is always true there); format /1 is still valid without it.
    const { entriesVerified: _e, ...withoutField } = cp;
    expect(checkpointValid(withoutField)).toBe(false);
    expect(checkpointValid({ ...cp, entriesVerified: false })).toBe(false);
    expect(checkpointValid({ ...withoutField, format: 'docket.checkpoint/1' })).toBe(true);
    expect(checkpointValid({ ...cp, format: 'docket.checkpoint/1' })).toBe(false);
    const policy = {
      format: 'docket.trust-policy/1',
      logs: ['log-0'],
      keys: [
        {
          keyId: KEYS.keyId,
          publicKey: toHex(KEYS.publicKey),
          validity: [{ logId: 'log-0', fromSeq: 0, toSeq: null }],
        },
      ],
      authorities: [{ environment: 'prod', table: 'docket-ledger' }],
      evaluatorBuilds: [BUILD_DIGEST],
    };
    expect(policyValid(policy)).toBe(true);
    expect(policyValid({ ...policy, keys: [] })).toBe(false);
    expect(policyValid({ ...policy, logs: ['a/b'] })).toBe(false);
    // Format /2: every key has a role; a /1 key has none.
    const v2 = { ...policy, format: 'docket.trust-policy/2', keys: [{ ...policy.keys[0], role: 'checkpoints' }] };
    expect(policyValid(v2)).toBe(true);
    expect(policyValid({ ...v2, keys: policy.keys })).toBe(false);
    expect(policyValid({ ...v2, keys: [{ ...policy.keys[0], role: 'both' }] })).toBe(false);
    expect(policyValid({ ...policy, keys: v2.keys })).toBe(false);
  });
});
