/**
 * Receipt verification in the browser (docs/console.md "/receipt"; docs/adr/0212-console-receipt-page.md): the same
 * strict readers and the same `verifyReceipt` that `docket verify-receipt` runs (cli/commands/verify-receipt.ts),
 * on core/ledger's portable crypto port, with no server and no network. The outcome is the CLI's: a verdict
 * `{ok, findings}`, or no verdict with one of the CLI's no-verdict codes.
 */
import {
  parseStoredEntry,
  readReceipt,
  readTrustPolicy,
  readWitnessPolicy,
  verifyReceipt,
  type ReceiptInput,
  type ReceiptVerdict,
  type WitnessPolicy,
} from '../../../core/ledger/index.js';

export const RECEIPT_INPUTS: readonly ReceiptInput[] = ['pack', 'facts', 'evidence', 'request'];

/** Exact file bytes, as the CLI reads them (never decoded to text first). */
export interface ReceiptFiles {
  readonly receipt: Uint8Array;
  readonly policy: Uint8Array;
  readonly witnesses?: Uint8Array;
  readonly inputs: Partial<Record<ReceiptInput, Uint8Array>>;
}

/** The entry the receipt is about, when its stored text reads strictly (else the page shows no link). */
export interface ReceiptSubject {
  readonly requestId: string;
  readonly logId: string;
  readonly seq: number;
}

export type ReceiptCheck =
  | { readonly state: 'verdict'; readonly verdict: ReceiptVerdict; readonly subject: ReceiptSubject | null }
  | {
      readonly state: 'no-verdict';
      /** One of cli/commands/verify-receipt.ts's RECEIPT_NO_VERDICT_CODES. */
      readonly code: 'receipt-unreadable' | 'policy-unreadable' | 'witness-policy-unreadable';
      readonly detail: string;
    };

export function checkReceipt(files: ReceiptFiles): ReceiptCheck {
  const receipt = readReceipt(files.receipt);
  if (!receipt.ok) return { state: 'no-verdict', code: 'receipt-unreadable', detail: receipt.error.detail };
  const policy = readTrustPolicy(files.policy);
  if (!policy.ok) return { state: 'no-verdict', code: 'policy-unreadable', detail: policy.error.detail };
  let witnesses: WitnessPolicy | undefined;
  if (files.witnesses !== undefined) {
    const w = readWitnessPolicy(files.witnesses);
    if (!w.ok) return { state: 'no-verdict', code: 'witness-policy-unreadable', detail: w.error.detail };
    witnesses = w.value;
  }
  const verdict = verifyReceipt(receipt.value, policy.value, {
    inputs: files.inputs,
    ...(witnesses ? { witnesses } : {}),
  });
  const parsed = parseStoredEntry(receipt.value.entry);
  const subject = parsed.ok
    ? { requestId: parsed.value.entry.requestId, logId: parsed.value.entry.logId, seq: parsed.value.entry.seq }
    : null;
  return { state: 'verdict', verdict, subject };
}
