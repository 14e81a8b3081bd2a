/**
 * The client side of tlog-witness `add-checkpoint`: what `docket witness` does per log, against its own in-process
 * witness or any C2SP witness over HTTP (the transport is injected). It sends its best guess of the witness's size,
 * and on a 409 with a text/x.tlog.size body retries once from the size the witness states (tlog-witness: that is
 * how a client learns it). The consistency proof comes from the ledger (`proofFor`).
 *
 * It never loops (ADR 0301): one retry at most; a 409 stating the size it sent, or a 422 for a checkpoint of the size
 * it sent, means the witness cosigned another root at that size (`equivocation`); any other 422 is a proof that does
 * not lead from the witness's root (`inconsistent`). Neither is retried: both are findings about the log.
 */
import { readSignatureLines, type NoteSignature } from '../notes/signed-note.js';
import {
  serializeAddCheckpointRequest,
  TLOG_SIZE_CONTENT_TYPE,
  type AddCheckpointResponse,
  type WitnessRefusal,
} from './add-checkpoint.js';

export type SubmitOutcome =
  | { readonly outcome: 'cosigned'; readonly oldSize: number; readonly signatures: readonly NoteSignature[] }
  | {
      readonly outcome: 'refused';
      readonly refusal: WitnessRefusal | 'response-malformed';
      readonly status: number;
      readonly witnessSize: number | null;
    };

export interface SubmitOptions {
  /** The signed checkpoint note (the log's signature at least). */
  readonly note: string;
  readonly treeSize: number;
  /** The size the witness is believed to hold (0 when unknown). */
  readonly oldSize: number;
  /** RFC 9162 consistency proof from oldSize to treeSize, computed from the ledger; null when it cannot be. */
  readonly proofFor: (oldSize: number, newSize: number) => Promise<Uint8Array[] | null>;
  readonly send: (body: string) => Promise<AddCheckpointResponse>;
}

const SIZE_BODY = /^(?:0|[1-9][0-9]{0,15})\n$/;
/** The refusal each other status states (add-checkpoint.ts); a 422 or 400 may say more, judged below. */
const REFUSAL_OF_STATUS = new Map<number, WitnessRefusal | 'response-malformed'>([
  [404, 'unknown-origin'],
  [403, 'no-trusted-log-signature'],
  [422, 'inconsistent'],
  [400, 'request-malformed'],
]);

export async function submitCheckpoint(o: SubmitOptions): Promise<SubmitOutcome> {
  let oldSize = o.oldSize;
  for (let attempt = 0; ; attempt++) {
    const proof = oldSize === 0 || oldSize >= o.treeSize ? [] : ((await o.proofFor(oldSize, o.treeSize)) ?? []);
    const r = await o.send(serializeAddCheckpointRequest({ oldSize, proof, note: o.note }));
    if (r.status === 200) {
      const lines = readSignatureLines(r.body);
      if (!lines.ok) return { outcome: 'refused', refusal: 'response-malformed', status: 200, witnessSize: null };
      return { outcome: 'cosigned', oldSize, signatures: lines.value };
    }
    if (r.status === 409) {
      const size = r.contentType.startsWith(TLOG_SIZE_CONTENT_TYPE) && SIZE_BODY.test(r.body) ? Number(r.body) : null;
      if (size === null) return { outcome: 'refused', refusal: 'response-malformed', status: 409, witnessSize: null };
      // The witness holds exactly what we sent: same size, another root.
      if (size === oldSize) return { outcome: 'refused', refusal: 'equivocation', status: 409, witnessSize: size };
      if (attempt === 0) {
        oldSize = size;
        continue;
      }
      return { outcome: 'refused', refusal: 'size-mismatch', status: 409, witnessSize: size };
    }
    let refusal = REFUSAL_OF_STATUS.get(r.status) ?? 'response-malformed';
    if (r.status === 422 && oldSize === o.treeSize) refusal = 'equivocation';
    if (r.status === 400 && oldSize > o.treeSize) refusal = 'rollback';
    return { outcome: 'refused', refusal, status: r.status, witnessSize: oldSize > o.treeSize ? oldSize : null };
  }
}
