/**
 * Witness policy, format "docket.witness-policy/1" (schema/witness-policy.schema.json; docs/verify.md "Witnesses"):
 * which witnesses an auditor trusts, how many must have cosigned each log's newest checkpoint, and how old the
 * newest cosigned checkpoint may be. Authored by people, read with the strict carrier, every rule checked.
 *
 *   { "format": "docket.witness-policy/1", "quorum": 1, "maxAgeSeconds": 86400,
 *     "witnesses": [{ "name": "auditor.example/witness", "publicKey": "<64 hex>" }] }
 *
 * "docket.witness-policy/2" is /1 where a witness may also be given as its C2SP vkey string, type 0x04
 * (`auditor.example/witness+<key ID>+<base64>`, core/ledger/notes/vkey.ts; docs/adr/0302-c2sp-vkeys-in-keys-and-policies.md),
 * as witness operators publish them. /1 documents are read as before.
 */
import { err, ok, type Result } from '../../result.js';
import { fromHex, isHex, toHex } from '../primitives/bytes.js';
import { readLedgerJson } from '../primitives/canonical.js';
import type { WitnessIdentity } from './cosignature.js';
import { isAcceptablePublicKey } from '../primitives/signature.js';
import { isValidKeyName, NOTE_SIG_COSIGNATURE_V1 } from '../notes/signed-note.js';
import { readVkey, serializeVkey, VkeyInvariantError } from '../notes/vkey.js';
import { exactly, isRec } from '../primitives/shape.js';

export const WITNESS_POLICY_FORMAT = 'docket.witness-policy/1';
/** /1 plus witnesses given as C2SP vkeys (ADR 0302). */
export const WITNESS_POLICY_FORMAT_V2 = 'docket.witness-policy/2';

export interface WitnessPolicy {
  readonly quorum: number;
  readonly maxAgeSeconds: number;
  readonly witnesses: readonly WitnessIdentity[];
}

export interface WitnessPolicyError {
  readonly code: 'witness-policy-invalid';
  readonly detail: string;
}

function violation(x: unknown): string | null {
  if (!isRec(x) || !exactly(x, ['format', 'quorum', 'maxAgeSeconds', 'witnesses']))
    return 'a witness policy has exactly format, quorum, maxAgeSeconds, witnesses';
  if (x.format !== WITNESS_POLICY_FORMAT && x.format !== WITNESS_POLICY_FORMAT_V2)
    return `format is ${WITNESS_POLICY_FORMAT} or ${WITNESS_POLICY_FORMAT_V2}`;
  if (!Array.isArray(x.witnesses) || x.witnesses.length === 0) return 'witnesses is a non-empty array';
  const ids = new Set<string>();
  for (const [i, item] of x.witnesses.entries()) {
    let w: unknown = item;
    if (typeof item === 'string' && x.format === WITNESS_POLICY_FORMAT_V2) {
      const v = readVkey(item, NOTE_SIG_COSIGNATURE_V1);
      if (!v.ok) return `witnesses[${i}] is a cosignature vkey (type 0x04): ${v.error.code}: ${v.error.detail}`;
      w = { name: v.value.name, publicKey: toHex(v.value.publicKey) };
    }
    if (!isRec(w) || !exactly(w, ['name', 'publicKey']))
      return x.format === WITNESS_POLICY_FORMAT_V2
        ? `witnesses[${i}] is a vkey string or has exactly name, publicKey`
        : `witnesses[${i}] has exactly name, publicKey`;
    if (typeof w.name !== 'string' || !isValidKeyName(w.name))
      return `witnesses[${i}].name is a key name (no spaces, no "+")`;
    if (!isHex(w.publicKey, 32) || !isAcceptablePublicKey(fromHex(w.publicKey)))
      return `witnesses[${i}].publicKey is a canonical, non-small-order Ed25519 key in lowercase hex`;
    // One key per cosigner (tlog-cosignature): a key listed twice would count twice towards the quorum.
    if (ids.has(w.publicKey) || ids.has(w.name)) return `witnesses[${i}] is listed once (name and key)`;
    ids.add(w.publicKey);
    ids.add(w.name);
  }
  const n = x.witnesses.length;
  if (typeof x.quorum !== 'number' || !Number.isSafeInteger(x.quorum) || x.quorum < 1 || x.quorum > n)
    return 'quorum is an integer from 1 to the number of witnesses';
  if (typeof x.maxAgeSeconds !== 'number' || !Number.isSafeInteger(x.maxAgeSeconds) || x.maxAgeSeconds < 1)
    return 'maxAgeSeconds is a positive integer';
  return null;
}

/** Strict reader. Never throws for bad input. */
export function readWitnessPolicy(bytes: Uint8Array): Result<WitnessPolicy, WitnessPolicyError> {
  const read = readLedgerJson<Record<string, unknown>>(bytes, violation);
  if (!read.ok) return err({ code: 'witness-policy-invalid', detail: read.error });
  const plain = read.value;
  return ok({
    quorum: plain.quorum as number,
    maxAgeSeconds: plain.maxAgeSeconds as number,
    witnesses: (plain.witnesses as (string | { name: string; publicKey: string })[]).map((w) => {
      if (typeof w !== 'string') return { name: w.name, publicKey: fromHex(w.publicKey) };
      const v = readVkey(w, NOTE_SIG_COSIGNATURE_V1);
      if (!v.ok) throw new VkeyInvariantError('checked above');
      return { name: v.value.name, publicKey: v.value.publicKey };
    }),
  });
}

/**
 * The one builder: a witness policy document (pretty JSON) naming the given witnesses — by name and hex key
 * (docket.witness-policy/1, the default) or as C2SP vkeys (docket.witness-policy/2).
 */
export function witnessPolicyDocument(p: WitnessPolicy, keys: 'hex' | 'vkey' = 'hex'): string {
  const doc = { format: keys === 'vkey' ? WITNESS_POLICY_FORMAT_V2 : WITNESS_POLICY_FORMAT, ...plainOf(p, keys) };
  if (violation(doc) !== null) throw new RangeError('invalid witness policy');
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const plainOf = (p: WitnessPolicy, keys: 'hex' | 'vkey') => ({
  quorum: p.quorum,
  maxAgeSeconds: p.maxAgeSeconds,
  witnesses: p.witnesses.map((w) =>
    keys === 'vkey'
      ? serializeVkey(w.name, NOTE_SIG_COSIGNATURE_V1, w.publicKey)
      : { name: w.name, publicKey: toHex(w.publicKey) },
  ),
});

/** A witness's C2SP vkey (type 0x04): what a verifier or a witness policy /2 is configured with. */
export const witnessVkey = (w: WitnessIdentity): string => serializeVkey(w.name, NOTE_SIG_COSIGNATURE_V1, w.publicKey);
