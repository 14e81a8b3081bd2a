import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/commands/keygen.js';
import { memoryIo } from '../../cli/io.js';
import { toHex } from '../../core/ledger/primitives/bytes.js';
import { keyIdOf } from '../../core/ledger/primitives/signature.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-keygen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const LOGS = ['--logs', 'prod-0,prod-1', '--environment', 'prod', '--table', 'docket-prod-ledger'];

describe('docket keygen', () => {
  it('writes an entry key, a separate local checkpoint key and a /2 trust policy pinning each in its role', async () => {
    const io = memoryIo();
    const [key, cp, policy] = ['a-key.json', 'a-checkpoint.json', 'a-policy.json'].map((f) => join(dir, f));
    expect(await run(['--out', key!, '--checkpoint-out', cp!, '--trust-policy', policy!, ...LOGS], io)).toBe(0);
    for (const f of [key!, cp!]) expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(io.out()).not.toMatch(/seed/);
    const r = readTrustPolicy(new Uint8Array(readFileSync(policy!)));
    if (!r.ok) throw new Error(r.error.detail);
    expect(r.value.format).toBe('docket.trust-policy/2');
    const entry = JSON.parse(readFileSync(key!, 'utf8')) as { keyId: string };
    const checkpoint = JSON.parse(readFileSync(cp!, 'utf8')) as { keyId: string };
    expect(entry.keyId).not.toBe(checkpoint.keyId);
    expect(r.value.keys.map((k) => [k.keyId, k.roles])).toEqual([
      [entry.keyId, ['entries']],
      [checkpoint.keyId, ['checkpoints']],
    ]);
    expect(r.value.keys[1]!.validity).toEqual([
      { logId: 'prod-0', fromSeq: 0, toSeq: null },
      { logId: 'prod-1', fromSeq: 0, toSeq: null },
    ]);
  });

  it('with --rfc0008-quantifiers writes a /3 trust policy permitting the draft feature on every log', async () => {
    const io = memoryIo();
    const [key, cp, policy] = ['q-key.json', 'q-checkpoint.json', 'q-policy.json'].map((f) => join(dir, f));
    const args = ['--out', key!, '--checkpoint-out', cp!, '--trust-policy', policy!, ...LOGS, '--rfc0008-quantifiers'];
    expect(await run(args, io)).toBe(0);
    const r = readTrustPolicy(new Uint8Array(readFileSync(policy!)));
    if (!r.ok) throw new Error(r.error.detail);
    expect(r.value.format).toBe('docket.trust-policy/3');
    expect(r.value.draftFeatures).toEqual([
      { logId: 'prod-0', allow: ['rfc0008-quantifiers'] },
      { logId: 'prod-1', allow: ['rfc0008-quantifiers'] },
    ]);
  });

  it('pins a KMS checkpoint key from the base64 DER public key that aws kms get-public-key prints', async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const der = publicKey.export({ format: 'der', type: 'spki' });
    const raw = new Uint8Array(der.subarray(12));
    const io = memoryIo();
    const policy = join(dir, 'b-policy.json');
    const args = ['--out', join(dir, 'b-key.json'), '--trust-policy', policy, ...LOGS];
    expect(await run([...args, '--checkpoint-public-key', der.toString('base64')], io)).toBe(0);
    const r = readTrustPolicy(new Uint8Array(readFileSync(policy)));
    if (!r.ok) throw new Error(r.error.detail);
    const pinned = r.value.keys.find((k) => k.roles.includes('checkpoints'))!;
    expect([pinned.keyId, toHex(pinned.publicKey)]).toEqual([keyIdOf(raw), toHex(raw)]);
  });

  it('refuses a trust policy without exactly one checkpoint key, and a public key that is not Ed25519', async () => {
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ format: 'der', type: 'spki' })
      .toString('base64');
    const base = ['--trust-policy', join(dir, 'c-policy.json'), ...LOGS];
    const cases = [
      ['--out', join(dir, 'c1.json'), ...base],
      [
        '--out',
        join(dir, 'c2.json'),
        ...base,
        '--checkpoint-out',
        join(dir, 'c2cp.json'),
        '--checkpoint-public-key',
        'ab'.repeat(32),
      ],
      ['--out', join(dir, 'c3.json'), ...base, '--checkpoint-public-key', p256],
    ];
    for (const argv of cases) {
      const io = memoryIo();
      expect(await run(argv, io), argv.join(' ')).toBe(64);
      expect(() => statSync(argv[1]!)).toThrow(); // nothing written
    }
  });
});
