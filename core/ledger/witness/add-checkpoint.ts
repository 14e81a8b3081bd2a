/**
 * The C2SP tlog-witness `add-checkpoint` exchange (c2sp.org/tlog-witness), both sides, pure:
 *
 *   request body:  "old <size>\n" ‖ 0–63 base64 consistency-proof hashes, one per line ‖ "\n" ‖ signed checkpoint note
 *   responses:     404 unknown origin · 403 no trusted log signature verifies · 400 old size > checkpoint size ·
 *                  409 old size ≠ the size last cosigned (body "<size>\n", Content-Type text/x.tlog.size) ·
 *                  422 the old size matches but the consistency proof does not verify — same size with another root
 *                  included (docs/adr/0301-witness-answers-422-for-same-size-another-root.md) · 200 the cosignature
 *                  line(s).
 * A malformed request is 400 too. The caller makes check-and-update atomic and persists the new state before it
 * sends the response (tlog-witness "add-checkpoint"); `witnessAddCheckpoint` returns both and changes nothing.
 */
import { err, ok, type Result } from '../../result.js';
import { bytesEqual } from '../primitives/bytes.js';
import { readCheckpointNote, verifyLogSignature, type CheckpointNote } from '../checkpoints/checkpoint-note.js';
import { cosign, type WitnessKey } from './cosignature.js';
import { EMPTY_ROOT, verifyConsistency } from '../checkpoints/merkle.js';
import { decodeBase64Strict, encodeBase64, serializeSignedNote, signatureLine } from '../notes/signed-note.js';
import type { TrustPolicy } from '../trust-policy/trust-policy.js';
import type { WitnessState } from './witness-state.js';

/** tlog-witness: at most 63 proof hashes. */
export const MAX_PROOF_HASHES = 63;
export const TLOG_SIZE_CONTENT_TYPE = 'text/x.tlog.size';

export interface AddCheckpointRequest {
  readonly oldSize: number;
  readonly proof: readonly Uint8Array[];
  /** The signed checkpoint note, exactly as sent. */
  readonly note: string;
}

/** Why a witness refused, as a stable code (the one-shot run reports it as its finding). */
export type WitnessRefusal =
  | 'request-malformed'
  | 'unknown-origin'
  | 'no-trusted-log-signature'
  | 'rollback'
  | 'size-mismatch'
  | 'equivocation'
  | 'inconsistent';

export interface AddCheckpointResponse {
  readonly status: 200 | 400 | 403 | 404 | 409 | 422;
  readonly contentType: string;
  readonly body: string;
}

export interface AddCheckpointOutcome {
  readonly response: AddCheckpointResponse;
  /** The state to persist before responding (only on 200). */
  readonly state: WitnessState | null;
  readonly refusal: WitnessRefusal | null;
  /** The cosigned note (only on 200). */
  readonly cosignedNote: string | null;
}

const SIZE = /^(?:0|[1-9][0-9]{0,15})$/;

/** The one request serializer (validates, then emits). */
export function serializeAddCheckpointRequest(r: AddCheckpointRequest): string {
  if (!Number.isSafeInteger(r.oldSize) || r.oldSize < 0) throw new RangeError('old size is a non-negative integer');
  if (r.proof.length > MAX_PROOF_HASHES || r.proof.some((h) => h.length !== 32))
    throw new RangeError(`a proof is at most ${MAX_PROOF_HASHES} 32-byte hashes`);
  if (!readCheckpointNote(r.note).ok) throw new RangeError('the request carries a signed checkpoint note');
  return `old ${r.oldSize}\n${r.proof.map((h) => `${encodeBase64(h)}\n`).join('')}\n${r.note}`;
}

/** The strict request reader. */
export function readAddCheckpointRequest(body: string): Result<AddCheckpointRequest, string> {
  const lines: string[] = [];
  let at = 0;
  for (;;) {
    const nl = body.indexOf('\n', at);
    if (nl < 0) return err('the proof block ends with an empty line');
    const line = body.slice(at, nl);
    at = nl + 1;
    if (line === '') break;
    lines.push(line);
    if (lines.length > MAX_PROOF_HASHES + 1) return err(`a proof has at most ${MAX_PROOF_HASHES} hashes`);
  }
  const first = lines[0];
  if (first === undefined || !first.startsWith('old ') || !SIZE.test(first.slice(4)))
    return err('the first line is "old <size>"');
  const proof: Uint8Array[] = [];
  for (const l of lines.slice(1)) {
    const h = decodeBase64Strict(l);
    if (h === null || h.length !== 32) return err('a proof line is base64 of a 32-byte hash');
    proof.push(h);
  }
  const note = body.slice(at);
  if (!readCheckpointNote(note).ok) return err('the body ends with a signed checkpoint note');
  return ok({ oldSize: Number(first.slice(4)), proof, note });
}

export interface WitnessContext {
  /** The logs this witness follows and their checkpoint keys. */
  readonly policy: TrustPolicy;
  /** Is this origin one the witness follows? (e.g. a Docket origin whose log and authority the policy lists) */
  readonly knowsOrigin: (origin: string) => boolean;
  readonly key: WitnessKey;
  /** Seconds since the epoch: the caller's clock. */
  readonly now: number;
  /**
   * Test seam for the teeth test of the conformance corpus: a witness that skips the consistency check must fail
   * it. Never set outside tests.
   */
  readonly skipConsistencyCheck?: boolean;
}

const text = (
  status: AddCheckpointResponse['status'],
  body: string,
  refusal: WitnessRefusal,
  contentType = 'text/plain; charset=utf-8',
): AddCheckpointOutcome => ({
  response: { status, contentType, body },
  state: null,
  refusal,
  cosignedNote: null,
});

/** The witness's decision on one request, in the order tlog-witness lists the checks. */
export function witnessAddCheckpoint(body: string, state: WitnessState, ctx: WitnessContext): AddCheckpointOutcome {
  const req = readAddCheckpointRequest(body);
  if (!req.ok) return text(400, `${req.error}\n`, 'request-malformed');
  const cn = readCheckpointNote(req.value.note);
  if (!cn.ok) return text(400, `${cn.error.detail}\n`, 'request-malformed');
  const { origin, treeSize, rootHash } = cn.value.body;
  if (!ctx.knowsOrigin(origin)) return text(404, 'unknown origin\n', 'unknown-origin');
  if (verifyLogSignature(cn.value, ctx.policy) === null)
    return text(403, 'no trusted log signature\n', 'no-trusted-log-signature');
  const { oldSize, proof } = req.value;
  if (oldSize > treeSize) return text(400, 'old size is larger than the checkpoint size\n', 'rollback');
  const last = state.get(origin);
  const lastSize = last?.treeSize ?? 0;
  if (oldSize !== lastSize) return text(409, `${lastSize}\n`, 'size-mismatch', TLOG_SIZE_CONTENT_TYPE);
  // ADR 0301: the old size matches, so a 409 (whose body would state the very size the client sent) would make a
  // client that retries from it loop. Between equal sizes the only consistency proof is the empty one, and it holds
  // only for equal roots (RFC 9162 §2.1.4.2): another root is a proof that fails, 422.
  if (last !== undefined && treeSize === last.treeSize && !bytesEqual(rootHash, last.rootHash))
    return text(
      422,
      'same size, another root: the checkpoint is not consistent with the one cosigned\n',
      'equivocation',
    );
  if (!consistent(last?.rootHash ?? null, oldSize, cn.value, proof, ctx))
    return text(422, 'the consistency proof does not verify\n', 'inconsistent');
  return cosignAndUpdate(cn.value, state, ctx);
}

function consistent(
  oldRoot: Uint8Array | null,
  oldSize: number,
  cn: CheckpointNote,
  proof: readonly Uint8Array[],
  ctx: WitnessContext,
): boolean {
  if (ctx.skipConsistencyCheck === true) return true;
  // RFC 9162 §2.1.1: the empty tree has exactly one root, SHA-256 of the empty string.
  if (cn.body.treeSize === 0) return proof.length === 0 && bytesEqual(cn.body.rootHash, EMPTY_ROOT);
  // tlog-witness: the proof is empty when the old size is 0 (every tree extends the empty one).
  if (oldSize === 0) return proof.length === 0;
  return verifyConsistency(oldSize, cn.body.treeSize, oldRoot as Uint8Array, cn.body.rootHash, proof);
}

function cosignAndUpdate(cn: CheckpointNote, state: WitnessState, ctx: WitnessContext): AddCheckpointOutcome {
  const sig = cosign(cn.note.text, ctx.key, ctx.now);
  // Keep the log's own signature lines and drop any older line of this witness's name.
  const others = cn.note.signatures.filter((s) => s.name !== ctx.key.name);
  const note = serializeSignedNote({ text: cn.note.text, signatures: [...others, sig] });
  const next = new Map(state);
  next.set(cn.body.origin, {
    origin: cn.body.origin,
    treeSize: cn.body.treeSize,
    rootHash: cn.body.rootHash,
    note,
  });
  return {
    response: { status: 200, contentType: 'text/plain; charset=utf-8', body: signatureLine(sig) },
    state: next,
    refusal: null,
    cosignedNote: note,
  };
}
