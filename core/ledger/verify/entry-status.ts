/**
 * The status of one stored entry, the first in ENTRY_STATUS_ORDER that applies (docs/verify.md).
 * Reads the stored bytes with the ledger's strict rules (canonical RFC 8785 bytes or `malformed`, never repaired;
 * docs/ledger-format.md) but keeps the disposition-digest rule for its own, later status so that the order is the
 * documented one: a digest that does not match the embedded disposition is reported only after the signature,
 * placement and projection checks (docs/adr/0090-verify-findings-and-order.md).
 */
import { fromHex } from '../primitives/bytes.js';
import { entryViolation } from '../entries/entry-rules.js';
import { ENTRY_FORMAT_PREFIX, ENTRY_FORMATS, type SignedEntry } from '../entries/entry-types.js';
import { entryHashOf, verifyStoredEntrySignature } from '../entries/entry.js';
import { otherVersion } from '../primitives/shape.js';
import type { StoredEntry } from '../store/store.js';
import { draftFeaturesAllowed, isAllowedBuild, keyForEntry, type TrustPolicy } from '../trust-policy/trust-policy.js';
import { readCanonicalText } from '../primitives/canonical.js';
import type { EntryStatus } from './findings.js';

/** The exact text entry-rules.ts gives for a digest that is not the SHA-256 of the canonical disposition. */
const DISPOSITION_DIGEST_RULE = 'dispositionDigest is the SHA-256 of the RFC 8785 disposition bytes';

export interface EntryCheck {
  readonly status: EntryStatus;
  /** RFC 9162 leaf hash of the exact stored bytes (the entry hash), always computed: the tree is over stored bytes. */
  readonly entryHash: Uint8Array;
  /** The same entry hash as lowercase hex (what prevHash, projections and checkpoints carry). */
  readonly entryHashHex: string;
  /** The parsed body when it could be read (any status after unsupported-version). */
  readonly entry: SignedEntry | null;
  /** Whether the Ed25519 signature was actually checked (false when deferred to a checkpoint). */
  readonly signatureChecked: boolean;
}

/**
 * Checks one stored entry. `checkSignature` false defers the Ed25519 check (the checkpoint path); the key lookup
 * under the trust policy is always done. Never throws for bad input.
 */
export function checkEntry(stored: StoredEntry, policy: TrustPolicy, checkSignature: boolean): EntryCheck {
  const entryHashHex = entryHashOf(stored.body);
  const entryHash = fromHex(entryHashHex);
  const check = (status: EntryStatus, entry: SignedEntry | null, signatureChecked = false): EntryCheck => ({
    status,
    entryHash,
    entryHashHex,
    entry,
    signatureChecked,
  });
  const unread = (s: 'malformed' | 'unsupported-version'): EntryCheck => check(s, null);
  const read = readCanonicalText(stored.body);
  if (!read.ok) return unread('malformed');
  const plain = read.value;
  if (otherVersion(plain, ENTRY_FORMAT_PREFIX, ENTRY_FORMATS) !== null) return unread('unsupported-version');
  const violation = entryViolation(plain, true);
  if (violation !== null && violation !== DISPOSITION_DIGEST_RULE) return unread('malformed');
  const entry = plain as SignedEntry;
  const status = (s: EntryStatus, signatureChecked: boolean): EntryCheck => check(s, entry, signatureChecked);
  // Key validity is judged at the position the signed body claims; misplacement is the later `misfiled`.
  const key = keyForEntry(policy, entry.keyId, entry.logId, entry.seq);
  if (!key.ok) return status(key.code, false);
  // The message is cut from the stored canonical bytes (entry.ts storedSigningMessage), not re-serialized.
  if (checkSignature && !verifyStoredEntrySignature(stored.body, entry, key.key.publicKey))
    return status('signature-mismatch', true);
  if (entry.logId !== stored.logId || entry.seq !== stored.seq) return status('misfiled', checkSignature);
  const p = stored.projection;
  if (p.requestId !== entry.requestId || p.kind !== entry.kind || p.entryHash !== entryHashHex)
    return status('projection-mismatch', checkSignature);
  if (violation === DISPOSITION_DIGEST_RULE) return status('disposition-digest-mismatch', checkSignature);
  if (!isAllowedBuild(policy, entry.evaluator.buildDigest))
    return status('evaluator-build-not-allowed', checkSignature);
  // ADR 0222: the draft features the signed body records must be permitted for its log (none always are).
  if (!draftFeaturesAllowed(policy, entry.logId, entry.seq, entry.draftFeatures))
    return status('draft-features-not-allowed', checkSignature);
  return status('ok', checkSignature);
}
