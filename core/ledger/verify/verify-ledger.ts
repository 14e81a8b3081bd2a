/**
 * verifyLedger (docs/verify.md): judges a ledger against a trust policy and signed checkpoints and returns a verdict
 * {ok, findings}, or no verdict when the ledger could not be read completely. Pure apart from reading the async
 * source. Two modes: all-signatures, and the checkpoint path, which skips an entry's signature only when the largest
 * matched vouching checkpoint covers it and was signed by another key (docs/verify.md;
 * docs/adr/0091-checkpoint-path.md, narrowed by docs/adr/0121-checkpoints-verify-before-signing.md).
 */
import { err, ok, type Result } from '../../result.js';
import { toHex, fromHex } from '../primitives/bytes.js';
import type { SignedCheckpoint } from '../checkpoints/checkpoint.js';
import { consistencyProof, EMPTY_ROOT, MerkleFrontier, verifyConsistency } from '../checkpoints/merkle.js';
import { StoreReadError, type Position, type StoredCheckpoint, type StoredEntry } from '../store/store.js';
import type { TrustPolicy } from '../trust-policy/trust-policy.js';
import { checkCheckpoint } from './checkpoint-status.js';
import { checkEntry } from './entry-status.js';
import { compareFindings, type EntryStatus, type Finding, type NoVerdict, type Verdict } from './findings.js';
import { Meanings, recordsRewrittenRegistry } from './meanings.js';
import type { LedgerSource } from './sources.js';
import { judgeNotes, newestClaim, type NoteCheckpoint, type WitnessEvidence } from '../witness/witness-evidence.js';
import type { WitnessPolicy } from '../witness/witness-policy.js';

export interface VerifyOptions {
  /** Check every entry signature (default false: the checkpoint path). */
  readonly allSignatures?: boolean;
  /** Position markers (request → log, seq), when the source has them: each must name a stored entry of that request. */
  readonly positions?: readonly Position[];
  /** Called every `progressEvery` entries with the count so far (the CLI draws its progress bar from it). */
  readonly onProgress?: (entries: number) => void;
  readonly progressEvery?: number;
  /** `verify --witnesses`: the witness policy, every cosigned checkpoint note gathered, and the caller's clock. */
  readonly witnesses?: {
    readonly policy: WitnessPolicy;
    readonly notes: readonly string[];
    /** Seconds since the epoch. */
    readonly now: number;
    /**
     * Test seam for the witness corpus's teeth test: a verifier that compares only the size of a cosigned checkpoint
     * with the ledger, not its root, must fail the corpus. Never set outside tests.
     */
    readonly skipRootComparison?: boolean;
  };
}

/** Statuses that come before the signature check: the entry's signature could not be checked at all. */
const BEFORE_SIGNATURE: ReadonlySet<EntryStatus> = new Set([
  'malformed',
  'unsupported-version',
  'unknown-key',
  'key-not-valid-at-seq',
]);
const EMPTY_ROOT_HEX = toHex(EMPTY_ROOT);

interface Anchor {
  readonly cp: SignedCheckpoint;
  /** May stand in for covered entry signatures (checkpoint-status.ts). */
  readonly vouches: boolean;
}

/** The entries whose signatures the checkpoint path may skip: index < size, unless signed by the one vouching key. */
interface Cover {
  readonly size: number;
  /** Keys of the matched vouching checkpoints of that size. An entry signed by one of them is still checked. */
  readonly keyIds: ReadonlySet<string>;
}
const NO_COVER: Cover = { size: 0, keyIds: new Set() };

class Run {
  readonly findings: Finding[] = [];
  readonly requests = new Map<string, { logId: string; seq: number }>();
  readonly slots = new Map<string, string | null>();
  readonly meanings = new Meanings();
  readonly anchorsByLog = new Map<string, Anchor[]>();
  readonly summaryAnchors: { logId: string; treeSize: number; time: string }[] = [];
  entries = 0;
  signatures = 0;
  logs = 0;
  readonly evidence: WitnessEvidence | null;

  constructor(
    readonly policy: TrustPolicy,
    readonly options: VerifyOptions,
  ) {
    const w = options.witnesses;
    this.evidence = w === undefined ? null : judgeNotes(w.notes, policy, w.policy);
  }

  judgeCheckpoints(checkpoints: readonly StoredCheckpoint[]): void {
    for (const stored of checkpoints) {
      const c = checkCheckpoint(stored, this.policy);
      if (c.status !== 'ok') {
        this.findings.push({ code: c.status, logId: stored.logId, treeSize: stored.treeSize });
        continue;
      }
      const cp = c.checkpoint as SignedCheckpoint;
      let list = this.anchorsByLog.get(cp.logId);
      if (list === undefined) this.anchorsByLog.set(cp.logId, (list = []));
      list.push({ cp, vouches: c.vouches });
    }
  }

  async verifyLog(logId: string, entries: AsyncIterable<StoredEntry> | Iterable<StoredEntry>): Promise<void> {
    this.logs += 1;
    const anchors = this.anchorsByLog.get(logId) ?? [];
    const noted = this.evidence?.get(logId) ?? [];
    const sizes = new Set([...anchors.map((a) => a.cp.treeSize), ...noted.map((w) => w.treeSize)]);
    // Only a vouching checkpoint can cover a signature, so only entries below the largest one are deferred.
    const maxAnchor = anchors.reduce((m, a) => (a.vouches ? Math.max(m, a.cp.treeSize) : m), -1);
    const all = this.options.allSignatures === true;
    const every = this.options.progressEvery ?? 10_000;
    const leaves: Uint8Array[] = [];
    const frontier = new MerkleFrontier();
    const rootsAt = new Map<number, string>([[0, EMPTY_ROOT_HEX]]);
    const statuses = new Map<number, { seq: number; status: EntryStatus }>();
    const pending: { index: number; stored: StoredEntry; keyId: string }[] = [];
    const trackSlots = this.options.positions !== undefined;
    let expected = 0;
    let prevSeq = -1;
    let prevHash: string | null = null;

    const step = (stored: StoredEntry): void => {
      const index = leaves.length;
      // A log's stored sequence is 0, 1, 2, … with no gap and no repeat (docs/verify.md, "Logs").
      if (stored.seq !== expected)
        this.findings.push({ code: 'sequence-broken', logId, seq: stored.seq, expectedSeq: expected });
      const defer = !all && index < maxAnchor;
      const c = checkEntry(stored, this.policy, !defer);
      if (c.signatureChecked) this.signatures += 1;
      if (defer && !BEFORE_SIGNATURE.has(c.status))
        pending.push({ index, stored, keyId: (c.entry as { keyId: string }).keyId });
      if (c.status !== 'ok') statuses.set(index, { seq: stored.seq, status: c.status });
      const hashHex = c.entryHashHex;
      if (c.entry !== null) {
        // The chain link is judged only between directly consecutive stored slots; a gap is sequence-broken alone.
        if (stored.seq === prevSeq + 1 && c.entry.prevHash !== prevHash)
          this.findings.push({ code: 'chain-broken', logId, seq: stored.seq });
        // Exactly one terminal entry per request id, across all logs (docs/verify.md, "Logs").
        const first = this.requests.get(c.entry.requestId);
        if (first !== undefined) {
          this.findings.push({
            code: 'duplicate-request',
            logId,
            seq: stored.seq,
            requestId: c.entry.requestId,
            firstLogId: first.logId,
            firstSeq: first.seq,
          });
        } else this.requests.set(c.entry.requestId, { logId, seq: stored.seq });
        // One meaning per pack or graph id@version across the ledger (ADR 0450), the first recorded being the original.
        if (recordsRewrittenRegistry(c.entry))
          this.findings.push({ code: 'registry-rewritten', logId, seq: stored.seq });
        const rebound = this.meanings.rebound(c.entry, logId, stored.seq);
        if (rebound !== undefined)
          this.findings.push({
            code: 'meaning-rebound',
            logId,
            seq: stored.seq,
            name: rebound.name,
            firstLogId: rebound.logId,
            firstSeq: rebound.seq,
          });
      }
      if (trackSlots && !this.slots.has(`${logId}\u0000${stored.seq}`))
        this.slots.set(`${logId}\u0000${stored.seq}`, c.entry?.requestId ?? null);
      leaves.push(c.entryHash);
      frontier.append(c.entryHash);
      if (sizes.has(frontier.size)) rootsAt.set(frontier.size, toHex(frontier.root()));
      prevSeq = stored.seq;
      prevHash = hashHex;
      expected = stored.seq + 1;
      this.entries += 1;
      if (this.options.onProgress !== undefined && this.entries % every === 0) this.options.onProgress(this.entries);
    };
    // A plain array (an export) is walked synchronously: one awaited promise per entry is a measurable cost.
    if (Symbol.asyncIterator in entries) for await (const stored of entries as AsyncIterable<StoredEntry>) step(stored);
    else for (const stored of entries as Iterable<StoredEntry>) step(stored);

    const cover = this.judgeAnchors(logId, anchors, leaves, rootsAt);
    if (this.evidence !== null) this.judgeWitnesses(logId, anchors, noted, leaves.length, rootsAt);
    // Entries no vouching checkpoint covers — and covered entries signed by the checkpoint's own key, which cannot
    // vouch for itself — get their signature checked now (ADR 0121).
    for (const p of pending) {
      if (p.index < cover.size && (cover.keyIds.size > 1 || !cover.keyIds.has(p.keyId))) continue;
      const c = checkEntry(p.stored, this.policy, true);
      this.signatures += 1;
      if (c.status === 'ok') statuses.delete(p.index);
      else statuses.set(p.index, { seq: p.stored.seq, status: c.status });
    }
    for (const { seq, status } of statuses.values())
      this.findings.push({ code: status as Exclude<EntryStatus, 'ok'>, logId, seq });
  }

  /** Anchor findings of one log; returns what the largest matched vouching checkpoint covers (nothing when none). */
  judgeAnchors(
    logId: string,
    anchors: readonly Anchor[],
    leaves: readonly Uint8Array[],
    rootsAt: ReadonlyMap<number, string>,
  ): Cover {
    const n = leaves.length;
    if (!this.policy.logs.includes(logId)) {
      this.findings.push({ code: 'unregistered-log', logId, missing: 'policy' });
      return NO_COVER;
    }
    // An absent anchor fails closed (docs/verify.md, "Anchors").
    if (anchors.length === 0) {
      this.findings.push({ code: 'unregistered-log', logId, missing: 'checkpoint' });
      return NO_COVER;
    }
    const bySize = new Map<number, Map<string, SignedCheckpoint>>();
    for (const a of anchors) {
      let m = bySize.get(a.cp.treeSize);
      if (m === undefined) bySize.set(a.cp.treeSize, (m = new Map()));
      const claim = `${a.cp.rootHash}:${a.cp.chainHead ?? ''}`;
      if (!m.has(claim)) m.set(claim, a.cp);
    }
    const sizes = [...bySize.keys()].sort((a, b) => a - b);
    const maxSize = sizes[sizes.length - 1] as number;
    if (n === 0 && maxSize > 0) {
      this.findings.push({ code: 'anchored-log-missing', logId, treeSize: maxSize });
      return NO_COVER;
    }
    const matched = new Map<number, SignedCheckpoint>();
    for (const size of sizes) {
      const claims = [...(bySize.get(size) as Map<string, SignedCheckpoint>).values()];
      if (claims.length > 1) this.findings.push({ code: 'checkpoint-equivocation', logId, treeSize: size });
      if (size > n) {
        this.findings.push({ code: 'tail-rollback', logId, treeSize: size, entries: n });
        continue;
      }
      const root = rootsAt.get(size) as string;
      const head = size === 0 ? null : toHex(leaves[size - 1] as Uint8Array);
      const rootOk = claims.filter((c) => c.rootHash === root);
      if (rootOk.length < claims.length) this.findings.push({ code: 'root-mismatch', logId, treeSize: size });
      const full = rootOk.find((c) => c.chainHead === head);
      if (rootOk.length > 0 && full === undefined) this.findings.push({ code: 'head-mismatch', logId, treeSize: size });
      if (full !== undefined) matched.set(size, full);
    }
    // RFC 9162 §2.1.4: each earlier checkpoint must be a prefix of the next later checkpoint the ledger matches.
    for (const size of sizes) {
      const later = sizes.find((s) => s > size && matched.has(s));
      if (later === undefined || size === 0) continue;
      // A claim equal to the ledger's own root at `size` is consistent by construction (the later checkpoint matches
      // the same leaves); a proof is built only for the others, so many scheduled checkpoints stay cheap.
      const claims = [...(bySize.get(size) as Map<string, SignedCheckpoint>).values()].filter(
        (c) => c.rootHash !== rootsAt.get(size),
      );
      if (claims.length === 0) continue;
      const laterRoot = fromHex((matched.get(later) as SignedCheckpoint).rootHash);
      const proof = consistencyProof(size, leaves.slice(0, later));
      if (claims.some((c) => !verifyConsistency(size, later, fromHex(c.rootHash), laterRoot, proof))) {
        this.findings.push({ code: 'checkpoint-inconsistent', logId, treeSize: size, laterTreeSize: later });
      }
    }
    const best = [...matched.keys()].sort((a, b) => b - a)[0];
    if (best === undefined) return NO_COVER;
    const cp = matched.get(best) as SignedCheckpoint;
    this.summaryAnchors.push({ logId, treeSize: best, time: cp.time });
    return coverOf(anchors, matched);
  }

  /**
   * `verify --witnesses` (docs/verify.md "Witnesses"): every checkpoint a quorum cosigned must be a prefix of the
   * ledger (else `rollback`); the newest checkpoint — the largest a valid Docket checkpoint or a log-signed note
   * states — must be cosigned by a quorum (else `unwitnessed-anchor`), and recently enough (else `stale-anchor`).
   */
  judgeWitnesses(
    logId: string,
    anchors: readonly Anchor[],
    noted: readonly NoteCheckpoint[],
    entries: number,
    rootsAt: ReadonlyMap<number, string>,
  ): void {
    const w = this.options.witnesses as NonNullable<VerifyOptions['witnesses']>;
    const witnessed = noted.filter((n) => n.witnessedAt !== null);
    for (const n of witnessed) {
      if (n.treeSize > entries || (w.skipRootComparison !== true && rootsAt.get(n.treeSize) !== n.rootHash))
        this.findings.push({ code: 'rollback', logId, treeSize: n.treeSize, entries });
    }
    const claims = [...anchors.map((a) => ({ treeSize: a.cp.treeSize, rootHash: a.cp.rootHash })), ...noted];
    const newest = newestClaim(claims, noted);
    if (newest === null) return; // no checkpoint at all: unregistered-log already fails the log closed
    if (!newest.witnessed) {
      this.findings.push({ code: 'unwitnessed-anchor', logId, treeSize: newest.treeSize });
      return;
    }
    const at = newest.witnessedAt as number;
    if (at < w.now - w.policy.maxAgeSeconds)
      this.findings.push({ code: 'stale-anchor', logId, treeSize: newest.treeSize, witnessedAt: at });
  }

  checkPositions(): void {
    for (const p of this.options.positions ?? []) {
      const key = `${p.logId}\u0000${p.seq}`;
      if (!this.slots.has(key))
        this.findings.push({ code: 'position-without-entry', logId: p.logId, seq: p.seq, requestId: p.requestId });
      else {
        const rid = this.slots.get(key);
        if (rid !== null && rid !== p.requestId)
          this.findings.push({ code: 'position-mismatch', logId: p.logId, seq: p.seq, requestId: p.requestId });
      }
    }
  }
}

/** The largest matched size with a vouching checkpoint making the same claim as the ledger, and its keys. */
function coverOf(anchors: readonly Anchor[], matched: ReadonlyMap<number, SignedCheckpoint>): Cover {
  let cover: { size: number; keyIds: Set<string> } = { size: 0, keyIds: new Set() };
  for (const a of anchors) {
    const m = matched.get(a.cp.treeSize);
    if (!a.vouches || m === undefined || a.cp.rootHash !== m.rootHash || a.cp.chainHead !== m.chainHead) continue;
    if (a.cp.treeSize > cover.size) cover = { size: a.cp.treeSize, keyIds: new Set([a.cp.keyId]) };
    else if (a.cp.treeSize === cover.size && cover.size > 0) cover.keyIds.add(a.cp.keyId);
  }
  return cover;
}

/**
 * Verifies a ledger. Returns no verdict (never a shorter ok) when the source's read is cut short (StoreReadError).
 * Any other exception is a bug and propagates.
 */
export async function verifyLedger(
  source: LedgerSource,
  policy: TrustPolicy,
  checkpoints: readonly StoredCheckpoint[],
  options: VerifyOptions = {},
): Promise<Result<Verdict, NoVerdict>> {
  const run = new Run(policy, options);
  run.judgeCheckpoints(checkpoints);
  const seen = new Set<string>();
  try {
    for await (const log of source.logs()) {
      if (seen.has(log.logId)) throw new StoreReadError(`log ${log.logId} listed twice by the source`);
      seen.add(log.logId);
      await run.verifyLog(log.logId, log.entries);
    }
  } catch (e) {
    if (e instanceof StoreReadError) return err({ code: 'store-read-incomplete', detail: e.message });
    throw e;
  }
  // Logs the policy or a valid checkpoint names but the ledger does not hold: judged as empty logs.
  const absent = new Set([...policy.logs, ...run.anchorsByLog.keys()].filter((l) => !seen.has(l)));
  for (const logId of [...absent].sort()) await run.verifyLog(logId, []);
  run.checkPositions();
  const findings = [...run.findings].sort(compareFindings);
  return ok({
    ok: findings.length === 0,
    findings,
    summary: {
      mode: options.allSignatures === true ? 'all-signatures' : 'checkpoint',
      logs: run.logs,
      entries: run.entries,
      entrySignaturesChecked: run.signatures,
      checkpoints: checkpoints.length,
      anchors: run.summaryAnchors.sort((a, b) => (a.logId < b.logId ? -1 : a.logId > b.logId ? 1 : 0)),
    },
  });
}
