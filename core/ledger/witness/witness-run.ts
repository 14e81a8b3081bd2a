/**
 * One witness run over a ledger's logs (what `docket witness` does on a schedule): for each log, its newest
 * log-signed checkpoint note goes through the add-checkpoint exchange (submit-checkpoint.ts) with a consistency
 * proof from the ledger. The result per log is either the cosignature lines or the witness's refusal — a rollback,
 * an inconsistent or equivocating checkpoint — which the caller reports (exit 1).
 */
import type { AddCheckpointResponse } from './add-checkpoint.js';
import { submitCheckpoint, type SubmitOutcome } from './submit-checkpoint.js';

export interface WitnessRunInput {
  readonly logs: readonly {
    readonly logId: string;
    readonly origin: string;
    readonly treeSize: number;
    readonly note: string;
  }[];
  /** The size the witness is believed to hold for an origin (its state, or 0 for a remote witness). */
  readonly oldSizeOf: (origin: string) => number;
  readonly proofFor: (logId: string, oldSize: number, newSize: number) => Promise<Uint8Array[] | null>;
  readonly send: (body: string) => Promise<AddCheckpointResponse>;
}

export type WitnessRunResult = { readonly logId: string; readonly treeSize: number } & SubmitOutcome;

export async function runWitness(input: WitnessRunInput): Promise<WitnessRunResult[]> {
  const out: WitnessRunResult[] = [];
  for (const l of input.logs) {
    const r = await submitCheckpoint({
      note: l.note,
      treeSize: l.treeSize,
      oldSize: input.oldSizeOf(l.origin),
      proofFor: (m, n) => input.proofFor(l.logId, m, n),
      send: input.send,
    });
    out.push({ logId: l.logId, treeSize: l.treeSize, ...r });
  }
  return out;
}
