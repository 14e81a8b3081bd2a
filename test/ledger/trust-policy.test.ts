import { describe, expect, it } from 'vitest';
import { toHex } from '../../core/ledger/primitives/bytes.js';
import {
  isAllowedAuthority,
  isAllowedBuild,
  keyCoversTree,
  keyForCheckpoint,
  keyForEntry,
  readTrustPolicy,
} from '../../core/ledger/trust-policy/trust-policy.js';
import { BUILD_DIGEST, KEYS, OTHER_KEYS } from './fixtures.js';

const policy = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  format: 'docket.trust-policy/1',
  logs: ['log-0', 'log-1'],
  keys: [
    {
      keyId: KEYS.keyId,
      publicKey: toHex(KEYS.publicKey),
      validity: [
        { logId: 'log-0', fromSeq: 0, toSeq: 99 },
        { logId: 'log-1', fromSeq: 0, toSeq: null },
      ],
    },
    {
      keyId: OTHER_KEYS.keyId,
      publicKey: toHex(OTHER_KEYS.publicKey),
      validity: [{ logId: 'log-0', fromSeq: 100, toSeq: null }],
    },
  ],
  authorities: [{ environment: 'prod', table: 'docket-ledger' }],
  evaluatorBuilds: [BUILD_DIGEST],
  ...over,
});
const FROM0 = [{ logId: 'log-0', fromSeq: 0, toSeq: null }];
const v2 = (keys: unknown[]): Record<string, unknown> => policy({ format: 'docket.trust-policy/2', keys });
const read = (x: unknown) => readTrustPolicy(new TextEncoder().encode(JSON.stringify(x, null, 2)));

describe('the trust policy', () => {
  it('pins keys to sequence ranges per log, so a rotation hands over at an exact seq', () => {
    const r = read(policy());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(keyForEntry(r.value, KEYS.keyId, 'log-0', 99).ok).toBe(true);
    expect(keyForEntry(r.value, KEYS.keyId, 'log-0', 100)).toEqual({ ok: false, code: 'key-not-valid-at-seq' });
    expect(keyForEntry(r.value, OTHER_KEYS.keyId, 'log-0', 100).ok).toBe(true);
    expect(keyForEntry(r.value, OTHER_KEYS.keyId, 'log-1', 5)).toEqual({ ok: false, code: 'key-not-valid-at-seq' });
    expect(keyForEntry(r.value, 'ed25519:00000000000000000000000000000000', 'log-0', 0)).toEqual({
      ok: false,
      code: 'unknown-key',
    });
    expect(keyForCheckpoint(r.value, KEYS.keyId, 'log-0', 100).ok).toBe(true);
    expect(keyForCheckpoint(r.value, KEYS.keyId, 'log-0', 101).ok).toBe(false);
    expect(keyForCheckpoint(r.value, KEYS.keyId, 'log-0', 0).ok).toBe(true);
  });

  it('reads a /1 key as holding both roles, and a checkpoint of tree size T as an anchor when the key is valid at T−1', () => {
    const r = read(policy());
    if (!r.ok) throw new Error(r.error.detail);
    expect(r.value.format).toBe('docket.trust-policy/1');
    expect(r.value.keys.map((k) => k.roles)).toEqual([
      ['entries', 'checkpoints'],
      ['entries', 'checkpoints'],
    ]);
    // OTHER_KEYS (log-0 from seq 100) anchors a checkpoint of 150 entries but does not vouch for seqs 0–99.
    expect(keyForCheckpoint(r.value, OTHER_KEYS.keyId, 'log-0', 150)).toMatchObject({ ok: true, coversTree: false });
    expect(keyForCheckpoint(r.value, OTHER_KEYS.keyId, 'log-0', 100)).toEqual({
      ok: false,
      code: 'key-not-valid-at-seq',
    });
    expect(keyForCheckpoint(r.value, KEYS.keyId, 'log-0', 100)).toMatchObject({ ok: true, coversTree: true });
    expect(keyForCheckpoint(r.value, KEYS.keyId, 'log-1', 0)).toMatchObject({ ok: true, coversTree: true });
  });

  it('gives each /2 key one role: an entry key signs no checkpoint and a checkpoint key no entry', () => {
    const r = read(
      v2([
        { keyId: KEYS.keyId, publicKey: toHex(KEYS.publicKey), role: 'entries', validity: FROM0 },
        { keyId: OTHER_KEYS.keyId, publicKey: toHex(OTHER_KEYS.publicKey), role: 'checkpoints', validity: FROM0 },
      ]),
    );
    if (!r.ok) throw new Error(r.error.detail);
    expect(r.value.format).toBe('docket.trust-policy/2');
    expect(keyForEntry(r.value, KEYS.keyId, 'log-0', 5).ok).toBe(true);
    expect(keyForEntry(r.value, OTHER_KEYS.keyId, 'log-0', 5)).toEqual({ ok: false, code: 'key-not-valid-at-seq' });
    expect(keyForCheckpoint(r.value, KEYS.keyId, 'log-0', 6)).toEqual({ ok: false, code: 'key-not-valid-at-seq' });
    expect(keyForCheckpoint(r.value, OTHER_KEYS.keyId, 'log-0', 6)).toMatchObject({ ok: true, coversTree: true });
  });

  it('says a key covers a tree only when its ranges, joined, hold every seq from 0 to T−1', () => {
    const key = (validity: { logId: string; fromSeq: number; toSeq: number | null }[]) => ({
      keyId: KEYS.keyId,
      publicKey: KEYS.publicKey,
      roles: ['checkpoints' as const],
      validity,
    });
    expect(keyCoversTree(key([{ logId: 'l', fromSeq: 0, toSeq: 9 }]), 'l', 10)).toBe(true);
    expect(keyCoversTree(key([{ logId: 'l', fromSeq: 0, toSeq: 9 }]), 'l', 11)).toBe(false);
    expect(keyCoversTree(key([{ logId: 'l', fromSeq: 1, toSeq: null }]), 'l', 5)).toBe(false);
    expect(
      keyCoversTree(
        key([
          { logId: 'l', fromSeq: 5, toSeq: null },
          { logId: 'l', fromSeq: 0, toSeq: 4 },
        ]),
        'l',
        50,
      ),
    ).toBe(true);
    expect(
      keyCoversTree(
        key([
          { logId: 'l', fromSeq: 0, toSeq: 3 },
          { logId: 'l', fromSeq: 5, toSeq: null },
        ]),
        'l',
        50,
      ),
    ).toBe(false);
    expect(keyCoversTree(key([{ logId: 'other', fromSeq: 0, toSeq: null }]), 'l', 1)).toBe(false);
    expect(keyCoversTree(key([]), 'l', 0)).toBe(true);
  });

  it('names the authorities and evaluator builds it accepts', () => {
    const r = read(policy());
    if (!r.ok) throw new Error(r.error.detail);
    expect(isAllowedAuthority(r.value, { environment: 'prod', table: 'docket-ledger' })).toBe(true);
    expect(isAllowedAuthority(r.value, { environment: 'dev', table: 'docket-ledger' })).toBe(false);
    // An authority is the pair: the right environment with another table (a restored copy) is not one.
    expect(isAllowedAuthority(r.value, { environment: 'prod', table: 'docket-ledger-restored' })).toBe(false);
    expect(isAllowedBuild(r.value, BUILD_DIGEST)).toBe(true);
    expect(isAllowedBuild(r.value, '0'.repeat(64))).toBe(false);
  });

  const invalid: [string, Record<string, unknown> | string][] = [
    [
      'a key id not derived from its public key',
      policy({
        keys: [
          {
            keyId: OTHER_KEYS.keyId,
            publicKey: toHex(KEYS.publicKey),
            validity: [{ logId: 'log-0', fromSeq: 0, toSeq: null }],
          },
        ],
      }),
    ],
    [
      'a small-order public key',
      policy({
        keys: [
          {
            keyId: 'ed25519:' + '0'.repeat(32),
            publicKey: '01' + '00'.repeat(31),
            validity: [{ logId: 'log-0', fromSeq: 0, toSeq: null }],
          },
        ],
      }),
    ],
    [
      'overlapping ranges of one key on one log',
      policy({
        keys: [
          {
            keyId: KEYS.keyId,
            publicKey: toHex(KEYS.publicKey),
            validity: [
              { logId: 'log-0', fromSeq: 0, toSeq: 10 },
              { logId: 'log-0', fromSeq: 10, toSeq: null },
            ],
          },
        ],
      }),
    ],
    [
      'a range on an unlisted log',
      policy({
        keys: [
          {
            keyId: KEYS.keyId,
            publicKey: toHex(KEYS.publicKey),
            validity: [{ logId: 'log-9', fromSeq: 0, toSeq: null }],
          },
        ],
      }),
    ],
    [
      'a range that ends before it starts',
      policy({
        keys: [
          { keyId: KEYS.keyId, publicKey: toHex(KEYS.publicKey), validity: [{ logId: 'log-0', fromSeq: 5, toSeq: 4 }] },
        ],
      }),
    ],
    [
      'a fractional sequence number',
      policy({
        keys: [
          {
            keyId: KEYS.keyId,
            publicKey: toHex(KEYS.publicKey),
            validity: [{ logId: 'log-0', fromSeq: 0.5, toSeq: null }],
          },
        ],
      }),
    ],
    ['an unknown member', policy({ comment: 'x' })],
    ['another format', policy({ format: 'docket.trust-policy/3' })],
    ['a /2 key without a role', policy({ format: 'docket.trust-policy/2' })],
    [
      'a /2 key with a role it cannot hold',
      v2([{ keyId: KEYS.keyId, publicKey: toHex(KEYS.publicKey), role: 'both', validity: FROM0 }]),
    ],
    [
      'a /1 key with a role',
      policy({
        keys: [{ keyId: KEYS.keyId, publicKey: toHex(KEYS.publicKey), role: 'entries', validity: FROM0 }],
      }),
    ],
    ['no authorities', policy({ authorities: [] })],
    ['an upper-case build digest', policy({ evaluatorBuilds: [BUILD_DIGEST.toUpperCase()] })],
    ['duplicate member names', `{"format":"docket.trust-policy/1","format":"docket.trust-policy/1"}`],
  ];
  for (const [what, doc] of invalid) {
    it(`is refused with ${what}`, () => {
      const r = typeof doc === 'string' ? readTrustPolicy(new TextEncoder().encode(doc)) : read(doc);
      expect(r.ok ? 'ok' : r.error.code).toBe('trust-policy-invalid');
    });
  }
});
