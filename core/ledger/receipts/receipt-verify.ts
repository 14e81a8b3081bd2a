/**
 * Offline verification of a docket.receipt/1 with nothing but the trust policy (and, optionally, a witness policy and
 * the input files the requester kept): docs/verify.md "Receipts" lists every check and finding;
 * docs/adr/0175-portable-receipts.md. Each check is made independently, so one verdict names every defect. Pure: no
 * clock, no store, no network.
 */
import { fromHex, sha256Hex, toHex } from '../primitives/bytes.js';
import { parseCheckpoint, type SignedCheckpoint } from '../checkpoints/checkpoint.js';
import { noteBodyOf, readCheckpointNote, verifyLogSignature } from '../checkpoints/checkpoint-note.js';
import { cosignatureTime } from '../witness/cosignature.js';
import { parseStoredEntry, verifyParsedEntrySignature, type ParsedEntry } from '../entries/entry.js';
import { verifyInclusion } from '../checkpoints/merkle.js';
import { readReceipt, type InclusionProof, type Receipt, type ReceiptReadError } from './receipt.js';
import { draftFeaturesAllowed, isAllowedBuild, keyForEntry, type TrustPolicy } from '../trust-policy/trust-policy.js';
import { checkCheckpoint } from '../verify/checkpoint-status.js';
import { CHECKPOINT_CODES } from '../verify/findings.js';
import type { WitnessPolicy } from '../witness/witness-policy.js';

/**
 * Every finding a receipt verification can report: ONE closed list, from which the type is derived; docs/verify.md
 * documents each (test/verify/finding-codes.test.ts checks both directions).
 */
export const RECEIPT_FINDING_CODES = [
  'entry-malformed',
  'entry-unsupported-version',
  'entry-unknown-key',
  'entry-key-not-valid-at-seq',
  'entry-signature-mismatch',
  'evaluator-build-not-allowed',
  'draft-features-not-allowed',
  ...CHECKPOINT_CODES,
  'checkpoint-of-another-log',
  'inclusion-proof-invalid',
  'entry-omitted',
  'note-mismatch',
  'note-log-signature-invalid',
  'unwitnessed-checkpoint',
  'pack-digest-mismatch',
  'facts-digest-mismatch',
  'evidence-digest-mismatch',
  'request-digest-mismatch',
  'graph-digest-mismatch',
  'inputs-digest-mismatch',
] as const;
export type ReceiptFindingCode = (typeof RECEIPT_FINDING_CODES)[number];

/** The input files a requester may present; each is compared with the digest the entry recorded. */
export type ReceiptInput = 'pack' | 'facts' | 'evidence' | 'request' | 'graph' | 'inputs';

export type ReceiptFinding =
  | {
      readonly code: Exclude<
        ReceiptFindingCode,
        `${ReceiptInput}-digest-mismatch` | 'unwitnessed-checkpoint' | 'entry-omitted'
      >;
    }
  /**
   * A saved result's audit (core/ledger/promise-audit.ts): a valid checkpoint of size `treeSize` commits, at the
   * entry's position `seq`, to another leaf (`leafHash`, the entry hash the log holds there): the promised entry
   * was left out of the log.
   */
  | {
      readonly code: 'entry-omitted';
      readonly logId: string;
      readonly seq: number;
      readonly treeSize: number;
      readonly leafHash: string;
    }
  /**
   * A saved result's audit: the live log now ends at `logEnd` (its number of entries) = the entry's `seq`, and the
   * entry's prevHash is the hash of the log's last entry — the signed entry proves the log reached `seq`, and the log
   * no longer holds it (docs/adr/0461-saved-entry-beyond-the-log-end-is-an-omission.md).
   */
  | { readonly code: 'entry-omitted'; readonly logId: string; readonly seq: number; readonly logEnd: number }
  /** With a witness policy: fewer than `quorum` of its witnesses validly cosigned the receipt's checkpoint note. */
  | { readonly code: 'unwitnessed-checkpoint'; readonly cosigned: number; readonly quorum: number }
  /** The file's SHA-256 (`actual`) is not the digest the entry recorded (`recorded`; null when it recorded none). */
  | {
      readonly code: `${ReceiptInput}-digest-mismatch`;
      readonly recorded: string | null;
      readonly actual: string;
    };

export interface ReceiptVerdict {
  readonly ok: boolean;
  readonly findings: readonly ReceiptFinding[];
}

export interface ReceiptVerifyOptions {
  readonly witnesses?: WitnessPolicy;
  /** Exact bytes of the files the requester presents. */
  readonly inputs?: Partial<Readonly<Record<ReceiptInput, Uint8Array>>>;
}

const ORDER = new Map<string, number>(RECEIPT_FINDING_CODES.map((c, i) => [c, i]));

/** Verifies a receipt read by readReceipt. Never throws for bad input. */
export function verifyReceipt(
  receipt: Receipt,
  policy: TrustPolicy,
  options: ReceiptVerifyOptions = {},
): ReceiptVerdict {
  const findings: ReceiptFinding[] = [];
  const entry = checkReceiptEntry(receipt.entry, policy, findings);
  const cp = checkReceiptCheckpoint(receipt.checkpoint, policy, findings);
  if (entry !== null && cp !== null) {
    if (cp.logId !== entry.entry.logId) findings.push({ code: 'checkpoint-of-another-log' });
    else if (!included(receipt, entry, cp)) findings.push({ code: 'inclusion-proof-invalid' });
  } else {
    // With an unreadable entry or checkpoint there is no leaf or root to prove inclusion of, or in.
    findings.push({ code: 'inclusion-proof-invalid' });
  }
  if (cp !== null) checkNote(receipt.note, cp, policy, options.witnesses, findings);
  if (options.inputs !== undefined) checkInputs(entry, options.inputs, findings);
  findings.sort((a, b) => (ORDER.get(a.code) ?? 0) - (ORDER.get(b.code) ?? 0));
  return { ok: findings.length === 0, findings };
}

/** A receipt judged from its bytes: unreadable bytes give no findings but the reader's error (`receipt-malformed`). */
export type ReceiptBytesVerdict =
  | (ReceiptVerdict & { readonly unreadable?: undefined })
  | { readonly ok: false; readonly findings: readonly []; readonly unreadable: ReceiptReadError };

/** readReceipt, then verifyReceipt, as `docket verify-receipt` does offline. Never throws for bad input. */
export function verifyReceiptBytes(
  bytes: Uint8Array,
  policy: TrustPolicy,
  options: ReceiptVerifyOptions = {},
): ReceiptBytesVerdict {
  const read = readReceipt(bytes);
  return read.ok ? verifyReceipt(read.value, policy, options) : { ok: false, findings: [], unreadable: read.error };
}

/** RFC 9162 §2.1.3.2 of `leafHash` (hex) at the receipt's leaf index in the checkpoint's root; false if unreadable. */
export function leafIncluded(r: Receipt, leafHash: string): boolean {
  const cp = parseCheckpoint(r.checkpoint);
  return cp.ok && inclusionHolds(r.inclusion, leafHash, cp.value);
}

/** RFC 9162 §2.1.3.2 of `leafHash` (hex) at the proof's leaf index in the root of a checkpoint of the proof's size. */
const inclusionHolds = (p: InclusionProof, leafHash: string, cp: SignedCheckpoint): boolean =>
  p.treeSize === cp.treeSize &&
  verifyInclusion(p.leafIndex, p.treeSize, fromHex(leafHash), p.path.map(fromHex), fromHex(cp.rootHash));

/** The entry judged alone, as a receipt's entry is: its findings are pushed; the parsed entry, or null if unreadable. */
export function checkReceiptEntry(body: string, policy: TrustPolicy, findings: ReceiptFinding[]): ParsedEntry | null {
  const parsed = parseStoredEntry(body);
  if (!parsed.ok) {
    findings.push({
      code: parsed.error.code === 'unsupported-version' ? 'entry-unsupported-version' : 'entry-malformed',
    });
    return null;
  }
  const e = parsed.value.entry;
  const key = keyForEntry(policy, e.keyId, e.logId, e.seq);
  if (!key.ok) findings.push({ code: key.code === 'unknown-key' ? 'entry-unknown-key' : 'entry-key-not-valid-at-seq' });
  else if (!verifyParsedEntrySignature(parsed.value, key.key.publicKey))
    findings.push({ code: 'entry-signature-mismatch' });
  if (!isAllowedBuild(policy, e.evaluator.buildDigest)) findings.push({ code: 'evaluator-build-not-allowed' });
  // ADR 0222: as verify judges it, the recorded draft features must be permitted for the entry's log.
  if (!draftFeaturesAllowed(policy, e.logId, e.seq, e.draftFeatures))
    findings.push({ code: 'draft-features-not-allowed' });
  return parsed.value;
}

/** The checkpoint judged exactly as `verify` judges a presented checkpoint (core/ledger/verify/checkpoint-status.ts). */
function checkReceiptCheckpoint(
  body: string,
  policy: TrustPolicy,
  findings: ReceiptFinding[],
): SignedCheckpoint | null {
  // Filed where its body says it belongs: an unreadable body is judged by its reader's code alone.
  const parsed = parseCheckpoint(body);
  const filed = parsed.ok ? parsed.value : { logId: '', treeSize: 0 };
  const check = checkCheckpoint({ logId: filed.logId, treeSize: filed.treeSize, body }, policy);
  if (check.status !== 'ok') findings.push({ code: check.status });
  return parsed.ok ? parsed.value : null;
}

/** RFC 9162 §2.1.3.2 with the entry's own seq as the leaf index and the checkpoint's size and root. */
const included = (r: Receipt, entry: ParsedEntry, cp: SignedCheckpoint): boolean =>
  r.inclusion.leafIndex === entry.entry.seq && inclusionHolds(r.inclusion, entry.entryHash, cp);

function checkNote(
  note: string | null,
  cp: SignedCheckpoint,
  policy: TrustPolicy,
  witnesses: WitnessPolicy | undefined,
  findings: ReceiptFinding[],
): void {
  if (note === null) {
    if (witnesses !== undefined)
      findings.push({ code: 'unwitnessed-checkpoint', cosigned: 0, quorum: witnesses.quorum });
    return;
  }
  const cn = readCheckpointNote(note);
  let expected: ReturnType<typeof noteBodyOf> | null;
  try {
    expected = noteBodyOf(cp);
  } catch {
    expected = null;
  }
  if (
    !cn.ok ||
    expected === null ||
    cn.value.body.origin !== expected.origin ||
    cn.value.body.treeSize !== expected.treeSize ||
    toHex(cn.value.body.rootHash) !== cp.rootHash ||
    cn.value.body.extensions.length !== 0
  ) {
    findings.push({ code: 'note-mismatch' });
    if (witnesses !== undefined)
      findings.push({ code: 'unwitnessed-checkpoint', cosigned: 0, quorum: witnesses.quorum });
    return;
  }
  if (verifyLogSignature(cn.value, policy) === null) findings.push({ code: 'note-log-signature-invalid' });
  if (witnesses === undefined) return;
  // tlog-cosignature: each listed witness counts once, with any valid cosignature line of its key.
  const cosigned = witnesses.witnesses.filter(
    (w) => cosignatureTime(cn.value.note.text, cn.value.note.signatures, w) !== null,
  ).length;
  if (cosigned < witnesses.quorum)
    findings.push({ code: 'unwitnessed-checkpoint', cosigned, quorum: witnesses.quorum });
}

function checkInputs(
  parsed: ParsedEntry | null,
  inputs: Partial<Readonly<Record<ReceiptInput, Uint8Array>>>,
  findings: ReceiptFinding[],
): void {
  const e = parsed?.entry;
  const graphRun = e?.kind === 'graph-run' ? e : undefined;
  const recorded: Record<ReceiptInput, string | null> = {
    pack: e?.pack?.digest ?? null,
    facts: e?.factsDigest ?? null,
    evidence: e?.evidenceDigest ?? null,
    request: e?.requestDigest ?? null,
    // A graph run (ADR 0360): the published graph's exact bytes, and the inputs document of the request.
    graph: graphRun?.graph.digest ?? null,
    inputs: graphRun?.inputsDigest ?? null,
  };
  for (const name of ['pack', 'facts', 'evidence', 'request', 'graph', 'inputs'] as const) {
    const bytes = inputs[name];
    if (bytes === undefined) continue;
    const actual = sha256Hex(bytes);
    if (actual === recorded[name]) continue;
    // A document inside a request is its member value, which carries no surrounding JSON whitespace (RFC 8259 §2
    // ws; docs/adr/0070): a facts or evidence file that ends in a newline still names the same document bytes.
    const documentBytes =
      name === 'facts' || name === 'evidence' || name === 'inputs' ? withoutOuterWhitespace(bytes) : bytes;
    if (documentBytes !== bytes && sha256Hex(documentBytes) === recorded[name]) continue;
    findings.push({ code: `${name}-digest-mismatch`, recorded: recorded[name], actual });
  }
}

const isWs = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** The bytes without leading and trailing RFC 8259 whitespace; the same array when there is none. */
function withoutOuterWhitespace(b: Uint8Array): Uint8Array {
  let start = 0;
  let end = b.length;
  while (start < end && isWs(b[start])) start += 1;
  while (end > start && isWs(b[end - 1])) end -= 1;
  return start === 0 && end === b.length ? b : b.subarray(start, end);
}
