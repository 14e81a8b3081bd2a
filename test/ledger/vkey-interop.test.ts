/**
 * A stock C2SP verifier, written here from signed-note and tlog-cosignature alone with node:crypto (none of Docket's
 * note code), checks Docket's checkpoint notes and cosignatures with nothing but the vkeys `docket keygen` and
 * `docket witness keygen` print (ADR 0302).
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSigningKey } from '../../adapters/signing-key.js';
import { run as keygen } from '../../cli/commands/keygen.js';
import { run as witness } from '../../cli/commands/witness.js';
import { memoryIo } from '../../cli/io.js';
import { parseWitnessKey } from '../../cli/witness/witness-key-file.js';
import { checkpointOrigin, signCheckpointNote } from '../../core/ledger/checkpoints/checkpoint-note.js';
import { cosign } from '../../core/ledger/witness/cosignature.js';
import { merkleRoot } from '../../core/ledger/checkpoints/merkle.js';
import { signEd25519 } from '../../core/ledger/primitives/signature.js';
import { serializeSignedNote, readSignedNote } from '../../core/ledger/notes/signed-note.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { readWitnessPolicy } from '../../core/ledger/witness/witness-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-vkey-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** signed-note "Verifying", from the spec: the signature lines of `name` with this vkey's key ID that verify. */
function stockVerify(note: string, vkey: string): 'verified' | 'no-known-signature' | 'bad-signature' {
  const [name, idHex, b64] = [vkey.split('+')[0]!, vkey.split('+')[1]!, vkey.split('+').slice(2).join('+')];
  const key = Buffer.from(b64, 'base64');
  const type = key[0]!;
  const pub = key.subarray(1);
  const id = createHash('sha256')
    .update(Buffer.concat([Buffer.from(name), Buffer.of(0x0a, type), pub]))
    .digest()
    .subarray(0, 4);
  if (id.toString('hex') !== idHex) throw new Error('the vkey is not self-consistent');
  const spki = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), pub]),
    format: 'der',
    type: 'spki',
  });
  const sep = note.lastIndexOf('\n\n');
  const text = note.slice(0, sep + 1);
  let result: 'verified' | 'no-known-signature' = 'no-known-signature';
  for (const line of note
    .slice(sep + 2)
    .split('\n')
    .filter(Boolean)) {
    const [dash, lineName, sig64] = line.split(' ');
    const sig = Buffer.from(sig64!, 'base64');
    if (dash !== '—' || lineName !== name || !sig.subarray(0, 4).equals(id)) continue;
    // tlog-cosignature: type 0x04 signs "cosignature/v1\ntime <t>\n" + text and carries the 8-byte time first.
    const message =
      type === 0x04 ? `cosignature/v1\ntime ${sig.readBigUInt64BE(4)}\n${text}` : type === 0x01 ? text : null;
    const raw = type === 0x04 ? sig.subarray(12) : sig.subarray(4);
    if (message === null || !verify(null, Buffer.from(message), spki, raw)) return 'bad-signature';
    result = 'verified';
  }
  return result;
}

describe('Docket keys as C2SP vkeys', () => {
  it('docket keygen prints per-log checkpoint vkeys under which a stock verifier accepts Docket checkpoint notes', async () => {
    const io = memoryIo();
    const [key, cp, policy] = ['e.json', 'c.json', 'p.json'].map((f) => join(dir, f));
    const flags = ['--logs', 'prod-0,prod-1', '--environment', 'prod', '--table', 'docket-prod-ledger'];
    expect(await keygen(['--out', key!, '--checkpoint-out', cp!, '--trust-policy', policy!, ...flags], io)).toBe(0);
    const line = io
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { role?: string; vkeys?: Record<string, string> })
      .find((l) => l.role === 'checkpoints')!;
    const origin = checkpointOrigin({ environment: 'prod', table: 'docket-prod-ledger' }, 'prod-1');
    expect(line.vkeys!['prod-1']!.startsWith(`${origin}+`)).toBe(true);
    const keys = parseSigningKey(readFileSync(cp!, 'utf8'), cp!);
    const note = await signCheckpointNote(
      { origin, treeSize: 3, rootHash: merkleRoot([new Uint8Array(32)]), extensions: [] },
      { publicKey: keys.publicKey, sign: (m) => signEd25519(m, keys.secretKey) },
    );
    expect(stockVerify(note, line.vkeys!['prod-1']!)).toBe('verified');
    // Another log's vkey names another origin: its verifier does not know this signature.
    expect(stockVerify(note, line.vkeys!['prod-0']!)).toBe('no-known-signature');
    // A note changed after signing is refused.
    expect(stockVerify(note.replace('\n3\n', '\n4\n'), line.vkeys!['prod-1']!)).toBe('bad-signature');
    // And the same vkey is accepted in a docket.trust-policy/4, pinning the same key.
    const written = JSON.parse(readFileSync(policy!, 'utf8')) as { format: string; keys: { publicKey: string }[] };
    const v4 = {
      ...written,
      format: 'docket.trust-policy/4',
      draftFeatures: [],
      keys: written.keys.map((k, i) => (i === 1 ? { ...k, publicKey: line.vkeys!['prod-1'] } : k)),
    };
    const read = readTrustPolicy(new TextEncoder().encode(JSON.stringify(v4)));
    if (!read.ok) throw new Error(read.error.detail);
    expect(Buffer.from(read.value.keys[1]!.publicKey).equals(Buffer.from(keys.publicKey))).toBe(true);
  });

  it('docket witness keygen prints a cosignature vkey under which a stock verifier accepts its cosignatures', async () => {
    const io = memoryIo();
    const wk = join(dir, 'w.json');
    expect(await witness(['keygen', '--name', 'auditor.example/w', '--out', wk], io)).toBe(0);
    const { vkey } = JSON.parse(io.out()) as { vkey: string };
    expect(vkey.startsWith('auditor.example/w+')).toBe(true);
    expect(Buffer.from(vkey.split('+').slice(2).join('+'), 'base64')[0]).toBe(0x04);
    const key = parseWitnessKey(readFileSync(wk, 'utf8'), wk);
    const text = 'docket/prod/docket-prod-ledger/prod-0\n3\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n';
    const note = serializeSignedNote({ text, signatures: [cosign(text, key, 1_767_225_600)] });
    expect(readSignedNote(note).ok).toBe(true);
    expect(stockVerify(note, vkey)).toBe('verified');
    expect(stockVerify(note.replace('\n3\n', '\n5\n'), vkey)).toBe('bad-signature');
    // A witness policy /2 lists it as printed.
    const policy = { format: 'docket.witness-policy/2', quorum: 1, maxAgeSeconds: 60, witnesses: [vkey] };
    const read = readWitnessPolicy(new TextEncoder().encode(JSON.stringify(policy)));
    if (!read.ok) throw new Error(read.error.detail);
    expect(read.value.witnesses.map((w) => w.name)).toEqual(['auditor.example/w']);
  });
});
