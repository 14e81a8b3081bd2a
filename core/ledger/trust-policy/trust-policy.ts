/**
 * Trust policy (schema/trust-policy.schema.json; docs/ledger-format.md "Trust policy", which gives every format /1–/5;
 * docs/adr/0120-separate-entry-and-checkpoint-keys.md): what an auditor pins before verifying — the keys with the
 * seq ranges (per log) each may sign, the logs, the authorities whose checkpoints count, the evaluator builds
 * accepted, and (/3 on) the draft features each log's entries may record. Authored by people, so it need not be
 * canonical, but it is read with the strict carrier and every rule is checked. A checkpoint of tree size T is an
 * anchor when its key is valid at seq T−1 (seq 0 for the empty tree), and vouches for entry signatures only when its
 * key is valid at every seq 0…T−1 (ADR 0121).
 */
import { err, ok, type Result } from '../../result.js';
import { fromHex, isHex } from '../primitives/bytes.js';
import { DRAFT_FEATURE_NAME_PATTERN, LOG_ID_PATTERN } from '../entries/entry-rules.js';
import { isAcceptablePublicKey, KEY_ID_PATTERN, keyIdOf } from '../primitives/signature.js';
import { canonicalText, readLedgerJson } from '../primitives/canonical.js';
import { NOTE_SIG_ED25519 } from '../notes/signed-note.js';
import { looksLikeVkey, readVkey } from '../notes/vkey.js';
import { exactly, isNat, isRec } from '../primitives/shape.js';

export const TRUST_POLICY_FORMAT = 'docket.trust-policy/2';
export const TRUST_POLICY_FORMAT_V1 = 'docket.trust-policy/1';
/** /2 plus the per-log draft features permitted (ADR 0222). */
export const TRUST_POLICY_FORMAT_V3 = 'docket.trust-policy/3';
/** /3 plus public keys given as C2SP vkeys (ADR 0302). */
export const TRUST_POLICY_FORMAT_V4 = 'docket.trust-policy/4';
/** /4 with a seq range on each draft-feature permit: the policy's history per log (ADR 0462). */
export const TRUST_POLICY_FORMAT_V5 = 'docket.trust-policy/5';
const FORMATS: readonly string[] = [
  TRUST_POLICY_FORMAT_V1,
  TRUST_POLICY_FORMAT,
  TRUST_POLICY_FORMAT_V3,
  TRUST_POLICY_FORMAT_V4,
  TRUST_POLICY_FORMAT_V5,
];

/** What a key may sign: entries (the evaluator's key) or checkpoints (the checkpoint writer's key). */
export type KeyRole = 'entries' | 'checkpoints';
const ROLES: readonly KeyRole[] = ['entries', 'checkpoints'];

export interface KeyValidity {
  readonly logId: string;
  readonly fromSeq: number;
  /** Inclusive; null = open-ended (the current key). */
  readonly toSeq: number | null;
}
export interface TrustedKey {
  readonly keyId: string;
  readonly publicKey: Uint8Array;
  /** Both roles for a docket.trust-policy/1 key; exactly one for a /2 key. */
  readonly roles: readonly KeyRole[];
  readonly validity: readonly KeyValidity[];
}
/** The draft features a log's entries at seqs fromSeq…toSeq may record (ADRs 0222, 0462). */
export interface DraftFeatureAllowance {
  readonly logId: string;
  readonly allow: readonly string[];
  /** 0 for a /3 or /4 element; absent (a policy built in code) = 0. */
  readonly fromSeq?: number;
  /** Inclusive; null = open-ended (every /3 or /4 element); absent = null. */
  readonly toSeq?: number | null;
}
export interface TrustPolicy {
  readonly format:
    | typeof TRUST_POLICY_FORMAT
    | typeof TRUST_POLICY_FORMAT_V1
    | typeof TRUST_POLICY_FORMAT_V3
    | typeof TRUST_POLICY_FORMAT_V4
    | typeof TRUST_POLICY_FORMAT_V5;
  readonly logs: readonly string[];
  readonly keys: readonly TrustedKey[];
  readonly authorities: readonly { readonly environment: string; readonly table: string }[];
  readonly evaluatorBuilds: readonly string[];
  /** Formats /3, /4, /5 only. Absent, or a log or seq it does not cover: no draft feature is permitted (ADR 0222). */
  readonly draftFeatures?: readonly DraftFeatureAllowance[];
}

export interface TrustPolicyError {
  readonly code: 'trust-policy-invalid';
  readonly detail: string;
}

const BASE_MEMBERS = ['format', 'logs', 'keys', 'authorities', 'evaluatorBuilds'];

/** The 32 raw bytes of a key's `publicKey`: lowercase hex, or (format /4) a type-0x01 vkey; a string saying why not. */
function publicKeyOf(x: unknown, vkeys: boolean): Uint8Array | string {
  if (vkeys && looksLikeVkey(x)) {
    const v = readVkey(x, NOTE_SIG_ED25519);
    return v.ok ? v.value.publicKey : `a note-signature vkey (type 0x01): ${v.error.code}: ${v.error.detail}`;
  }
  if (!isHex(x, 32) || !isAcceptablePublicKey(fromHex(x)))
    return `a canonical, non-small-order Ed25519 key in lowercase hex${vkeys ? ' or a vkey' : ''}`;
  return fromHex(x);
}

function policyViolation(x: unknown): string | null {
  const v5 = isRec(x) && x.format === TRUST_POLICY_FORMAT_V5;
  const v4 = isRec(x) && (x.format === TRUST_POLICY_FORMAT_V4 || v5);
  const v3 = isRec(x) && (x.format === TRUST_POLICY_FORMAT_V3 || v4);
  const members = v3 ? [...BASE_MEMBERS, 'draftFeatures'] : BASE_MEMBERS;
  if (!isRec(x) || !exactly(x, members)) return `a policy has exactly ${members.join(', ')}`;
  if (typeof x.format !== 'string' || !FORMATS.includes(x.format))
    return `format is ${TRUST_POLICY_FORMAT} (or ${TRUST_POLICY_FORMAT_V1}, ${TRUST_POLICY_FORMAT_V3}, ${TRUST_POLICY_FORMAT_V4}, ${TRUST_POLICY_FORMAT_V5})`;
  // /3 keys are /2 keys: each holds one role.
  const v2 = x.format !== TRUST_POLICY_FORMAT_V1;
  const keyMembers = v2 ? ['keyId', 'publicKey', 'role', 'validity'] : ['keyId', 'publicKey', 'validity'];
  if (!Array.isArray(x.logs) || x.logs.length === 0) return 'logs is a non-empty array';
  const logs = new Set<string>();
  for (const l of x.logs) {
    if (typeof l !== 'string' || !LOG_ID_PATTERN.test(l)) return 'logs holds valid log ids';
    if (logs.has(l)) return `log ${l} is listed once`;
    logs.add(l);
  }
  if (!Array.isArray(x.keys) || x.keys.length === 0) return 'keys is a non-empty array';
  const ids = new Set<string>();
  for (const [i, k] of x.keys.entries()) {
    const at = `keys[${i}]`;
    if (!isRec(k) || !exactly(k, keyMembers)) return `${at} has exactly ${keyMembers.join(', ')}`;
    if (v2 && !ROLES.includes(k.role as KeyRole)) return `${at}.role is "entries" or "checkpoints"`;
    if (typeof k.keyId !== 'string' || !KEY_ID_PATTERN.test(k.keyId))
      return `${at}.keyId is "ed25519:" + 32 lowercase hex digits`;
    const publicKey = publicKeyOf(k.publicKey, v4);
    if (typeof publicKey === 'string') return `${at}.publicKey is ${publicKey}`;
    if (keyIdOf(publicKey) !== k.keyId) return `${at}.keyId is derived from its public key`;
    if (ids.has(k.keyId)) return `${at}.keyId is listed once`;
    ids.add(k.keyId);
    if (!Array.isArray(k.validity) || k.validity.length === 0) return `${at}.validity is a non-empty array`;
    const ranges: KeyValidity[] = [];
    for (const [j, r] of k.validity.entries()) {
      const rat = `${at}.validity[${j}]`;
      if (!isRec(r) || !exactly(r, ['logId', 'fromSeq', 'toSeq'])) return `${rat} has exactly logId, fromSeq, toSeq`;
      if (typeof r.logId !== 'string' || !logs.has(r.logId)) return `${rat}.logId is one of logs`;
      const bad = rangeViolation(r, rat);
      if (bad !== null) return bad;
      const mine = { logId: r.logId, fromSeq: r.fromSeq as number, toSeq: r.toSeq as number | null };
      if (ranges.some((o) => overlap(o, mine))) return `${rat} overlaps another range of the same key and log`;
      ranges.push(mine);
    }
  }
  if (!Array.isArray(x.authorities) || x.authorities.length === 0) return 'authorities is a non-empty array';
  const seen = new Set<string>();
  for (const [i, a] of x.authorities.entries()) {
    if (
      !isRec(a) ||
      !exactly(a, ['environment', 'table']) ||
      typeof a.environment !== 'string' ||
      typeof a.table !== 'string' ||
      a.environment === '' ||
      a.table === ''
    ) {
      return `authorities[${i}] is {environment, table} with non-empty strings`;
    }
    const key = canonicalText(a);
    if (seen.has(key)) return `authorities[${i}] is listed once`;
    seen.add(key);
  }
  if (!Array.isArray(x.evaluatorBuilds)) return 'evaluatorBuilds is an array';
  if (new Set(x.evaluatorBuilds).size !== x.evaluatorBuilds.length) return 'evaluatorBuilds lists each digest once';
  for (const d of x.evaluatorBuilds) if (!isHex(d, 32)) return 'evaluatorBuilds holds 64 lowercase hex digit digests';
  return v3 ? draftFeaturesViolation(x.draftFeatures, logs, v5) : null;
}

/** A key's or a permit's seq range `at`: fromSeq…toSeq, toSeq null when open-ended. */
function rangeViolation(r: Record<string, unknown>, at: string): string | null {
  if (!isNat(r.fromSeq)) return `${at}.fromSeq is a non-negative integer`;
  if (r.toSeq !== null && (!isNat(r.toSeq) || r.toSeq < r.fromSeq))
    return `${at}.toSeq is null or an integer ≥ fromSeq`;
  return null;
}

const overlap = (a: KeyValidity, b: KeyValidity): boolean =>
  a.logId === b.logId && b.fromSeq <= (a.toSeq ?? Infinity) && a.fromSeq <= (b.toSeq ?? Infinity);

function draftFeaturesViolation(x: unknown, logs: ReadonlySet<string>, ranged: boolean): string | null {
  if (!Array.isArray(x)) return 'draftFeatures is an array';
  const members = ranged ? ['logId', 'fromSeq', 'toSeq', 'allow'] : ['logId', 'allow'];
  const ranges: KeyValidity[] = [];
  for (const [i, a] of x.entries()) {
    const at = `draftFeatures[${i}]`;
    if (!isRec(a) || !exactly(a, members)) return `${at} has exactly ${members.join(', ')}`;
    if (typeof a.logId !== 'string' || !logs.has(a.logId)) return `${at}.logId is one of logs`;
    const mine = ranged
      ? { logId: a.logId, fromSeq: a.fromSeq as number, toSeq: a.toSeq as number | null }
      : { logId: a.logId, fromSeq: 0, toSeq: null };
    const bad = ranged ? rangeViolation(a, at) : null;
    if (bad !== null) return bad;
    // One permit per seq: a log's history is a list of disjoint ranges (/3 and /4: one element per log).
    if (ranges.some((o) => overlap(o, mine)))
      return ranged ? `${at} overlaps another range of its log` : `${at}.logId names its log once`;
    ranges.push(mine);
    if (!Array.isArray(a.allow) || a.allow.length === 0) return `${at}.allow is a non-empty array`;
    if (new Set(a.allow).size !== a.allow.length) return `${at}.allow lists each feature once`;
    for (const f of a.allow)
      if (typeof f !== 'string' || f.length > 64 || !DRAFT_FEATURE_NAME_PATTERN.test(f))
        return `${at}.allow holds lowercase draft feature names`;
  }
  return null;
}

/** Strict reader of a trust policy file. Never throws for bad input. */
export function readTrustPolicy(bytes: Uint8Array): Result<TrustPolicy, TrustPolicyError> {
  const read = readLedgerJson<Record<string, unknown>>(bytes, policyViolation); // integers only, as in every record
  if (!read.ok) return err({ code: 'trust-policy-invalid', detail: read.error });
  const plain = read.value;
  const v1 = plain.format === TRUST_POLICY_FORMAT_V1;
  const v5 = plain.format === TRUST_POLICY_FORMAT_V5;
  const v4 = plain.format === TRUST_POLICY_FORMAT_V4 || v5;
  const v3 = plain.format === TRUST_POLICY_FORMAT_V3 || v4;
  const keys = (plain.keys as Record<string, unknown>[]).map((k) => ({
    keyId: k.keyId as string,
    publicKey: publicKeyOf(k.publicKey, v4) as Uint8Array, // checked by policyViolation
    // A /1 key signed both entries and checkpoints (ADR 0056); it never vouches for its own entries (ADR 0121).
    roles: v1 ? [...ROLES] : [k.role as KeyRole],
    validity: (k.validity as KeyValidity[]).map((r) => ({ logId: r.logId, fromSeq: r.fromSeq, toSeq: r.toSeq })),
  }));
  return ok({
    format: plain.format as TrustPolicy['format'], // one of FORMATS: checked by policyViolation
    logs: [...(plain.logs as string[])],
    keys,
    authorities: (plain.authorities as { environment: string; table: string }[]).map((a) => ({
      environment: a.environment,
      table: a.table,
    })),
    evaluatorBuilds: [...(plain.evaluatorBuilds as string[])],
    ...(v3
      ? {
          draftFeatures: (plain.draftFeatures as DraftFeatureAllowance[]).map((a) => ({
            logId: a.logId,
            allow: [...a.allow],
            // A /3 or /4 element has no range: absent means from seq 0 on, open-ended.
            ...(v5 ? { fromSeq: a.fromSeq, toSeq: a.toSeq } : {}),
          })),
        }
      : {}),
  });
}

export type KeyLookup =
  | { readonly ok: true; readonly key: TrustedKey }
  | { readonly ok: false; readonly code: 'unknown-key' | 'key-not-valid-at-seq' };

const validAt = (key: TrustedKey, logId: string, seq: number): boolean =>
  key.validity.some((r) => r.logId === logId && seq >= r.fromSeq && (r.toSeq === null || seq <= r.toSeq));

/**
 * The pinned key a record at (logId, seq) signed with keyId must verify under, or why there is none. A key that does
 * not hold the role is not valid at any seq for it (a checkpoint key signing an entry is `key-not-valid-at-seq`).
 */
export function keyForRole(policy: TrustPolicy, role: KeyRole, keyId: string, logId: string, seq: number): KeyLookup {
  const key = policy.keys.find((k) => k.keyId === keyId);
  if (key === undefined) return { ok: false, code: 'unknown-key' };
  return key.roles.includes(role) && validAt(key, logId, seq)
    ? { ok: true, key }
    : { ok: false, code: 'key-not-valid-at-seq' };
}

/** The pinned entry key an entry at (logId, seq) signed with keyId must verify under, or why there is none. */
export function keyForEntry(policy: TrustPolicy, keyId: string, logId: string, seq: number): KeyLookup {
  return keyForRole(policy, 'entries', keyId, logId, seq);
}

export type CheckpointKeyLookup =
  | {
      readonly ok: true;
      readonly key: TrustedKey;
      /** The key is valid at every seq 0…treeSize−1 of the log: it may vouch for the whole tree (ADR 0121). */
      readonly coversTree: boolean;
    }
  | { readonly ok: false; readonly code: 'unknown-key' | 'key-not-valid-at-seq' };

/** True when the key's ranges for the log, together, hold every seq in [0, treeSize − 1]. */
export function keyCoversTree(key: TrustedKey, logId: string, treeSize: number): boolean {
  const ranges = key.validity.filter((r) => r.logId === logId).sort((a, b) => a.fromSeq - b.fromSeq);
  let next = 0; // the first seq not yet known to be covered
  for (const r of ranges) {
    if (next >= treeSize) break;
    if (r.fromSeq > next) return false;
    if (r.toSeq === null) return true;
    next = Math.max(next, r.toSeq + 1);
  }
  return next >= treeSize;
}

/**
 * The checkpoint key for a checkpoint of tree size T: an anchor when the key holds the checkpoint role and is valid
 * at seq T−1 (seq 0 for the empty tree; ADR 0056), and `coversTree` when it is valid for the whole covered range
 * 0…T−1 — only then may verify skip covered entry signatures on its word (ADR 0121).
 */
export function keyForCheckpoint(
  policy: TrustPolicy,
  keyId: string,
  logId: string,
  treeSize: number,
): CheckpointKeyLookup {
  const at = keyForRole(policy, 'checkpoints', keyId, logId, Math.max(treeSize - 1, 0));
  if (!at.ok) return at;
  return { ok: true, key: at.key, coversTree: keyCoversTree(at.key, logId, treeSize) };
}

export const isAllowedAuthority = (policy: TrustPolicy, origin: { environment: string; table: string }): boolean =>
  policy.authorities.some((a) => a.environment === origin.environment && a.table === origin.table);

export const isAllowedBuild = (policy: TrustPolicy, buildDigest: string): boolean =>
  policy.evaluatorBuilds.includes(buildDigest);

/**
 * Whether the policy permits an entry at (`logId`, `seq`) that records these draft features (ADRs 0222, 0462): none
 * recorded (every format /1 entry) is always permitted; otherwise each must be in the allow-list of the log's permit
 * whose range holds `seq`. A policy without the member (/1, /2, or one that covers no range of the log holding seq)
 * permits none: a policy written before draft features existed never silently accepts entries evaluated under draft
 * grammar.
 */
export function draftFeaturesAllowed(
  policy: TrustPolicy,
  logId: string,
  seq: number,
  recorded: readonly string[] | undefined,
): boolean {
  if (recorded === undefined || recorded.length === 0) return true;
  const permit = policy.draftFeatures?.find(
    (a) =>
      a.logId === logId && seq >= (a.fromSeq ?? 0) && (a.toSeq === undefined || a.toSeq === null || seq <= a.toSeq),
  );
  return recorded.every((f) => permit?.allow.includes(f) === true);
}
