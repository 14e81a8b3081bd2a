/**
 * `docket verify-receipt <receipt.json> [--policy <trust-policy.json>] [--witnesses <witness-policy.json>]
 *   [--pack <f>] [--facts <f>] [--evidence <f>] [--request <f>]` (docs/verify.md "Receipts"): verifies one
 * docket.receipt/1 offline — no stack, no network — with core/ledger's verifyReceipt, and prints ONE line of JSON
 * `{"ok":…,"findings":[…]}`. Exit 0 ok, 1 not ok, 2 no verdict (an unreadable receipt, policy or input file),
 * 64 usage error, like `docket verify`.
 */
import { readFile } from 'node:fs/promises';
import { EXIT, parseCommandArgs, readCommandLine } from '../args.js';
import type { CliIo } from '../io.js';
import { reportNoVerdict } from '../no-verdict.js';
import {
  readReceipt,
  readTrustPolicy,
  readWitnessPolicy,
  verifyReceipt,
  type ReceiptInput,
  type WitnessPolicy,
} from '../../core/ledger/index.js';
import { localPaths } from '../../stack/local-files.js';

const USAGE = `docket verify-receipt <receipt.json> [--policy <trust-policy.json>] [--witnesses <witness-policy.json>]
                      [--pack <file>] [--facts <file>] [--evidence <file>] [--request <file>]
  Verifies the receipt offline under the trust policy (default .docket/local/trust-policy.json): entry signature and
  key, inclusion proof, checkpoint signature, key role and validity, authority, the checkpoint note; with --witnesses
  a quorum of the witness policy's witnesses must have cosigned the checkpoint; each input file given must have the
  SHA-256 the entry recorded. Prints one line of JSON {ok, findings}; exit 0 ok, 1 not ok, 2 no verdict.`;

/** Why no verdict could be reached: a file that could not be read or is not the format it must be. */
export const RECEIPT_NO_VERDICT_CODES = [
  'receipt-unreadable',
  'policy-unreadable',
  'witness-policy-unreadable',
  'input-unreadable',
] as const;
type NoVerdictCode = (typeof RECEIPT_NO_VERDICT_CODES)[number];

const INPUTS: readonly ReceiptInput[] = ['pack', 'facts', 'evidence', 'request'];

async function bytesOf(path: string): Promise<Uint8Array | Error> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (e) {
    return e as Error;
  }
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(io, 'verify-receipt', USAGE, () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        policy: { type: 'string' },
        witnesses: { type: 'string' },
        pack: { type: 'string' },
        facts: { type: 'string' },
        evidence: { type: 'string' },
        request: { type: 'string' },
        help: { type: 'boolean' },
      },
      { min: 1, max: 1 },
    );
    return values.help === true ? 'help' : { values, path: positionals[0] as string };
  });
  if (!line.ok) return line.exit;
  const { values, path } = line.args;
  const noVerdict = (code: NoVerdictCode, detail: string) =>
    reportNoVerdict(io, 'verify-receipt', { code, detail }, EXIT.NO_VERDICT);

  const receiptBytes = await bytesOf(path);
  if (receiptBytes instanceof Error) return noVerdict('receipt-unreadable', `${path}: ${receiptBytes.message}`);
  const receipt = readReceipt(receiptBytes);
  if (!receipt.ok) return noVerdict('receipt-unreadable', `${path}: ${receipt.error.detail}`);

  const policyPath = typeof values.policy === 'string' ? values.policy : localPaths().trustPolicy;
  const policyBytes = await bytesOf(policyPath);
  if (policyBytes instanceof Error) return noVerdict('policy-unreadable', `${policyPath}: ${policyBytes.message}`);
  const policy = readTrustPolicy(policyBytes);
  if (!policy.ok) return noVerdict('policy-unreadable', `${policyPath}: ${policy.error.detail}`);

  let witnesses: WitnessPolicy | undefined;
  if (typeof values.witnesses === 'string') {
    const b = await bytesOf(values.witnesses);
    if (b instanceof Error) return noVerdict('witness-policy-unreadable', `${values.witnesses}: ${b.message}`);
    const w = readWitnessPolicy(b);
    if (!w.ok) return noVerdict('witness-policy-unreadable', `${values.witnesses}: ${w.error.detail}`);
    witnesses = w.value;
  }

  const inputs: Partial<Record<ReceiptInput, Uint8Array>> = {};
  for (const name of INPUTS) {
    const file = values[name];
    if (typeof file !== 'string') continue;
    const b = await bytesOf(file);
    if (b instanceof Error) return noVerdict('input-unreadable', `--${name} ${file}: ${b.message}`);
    inputs[name] = b;
  }

  const verdict = verifyReceipt(receipt.value, policy.value, { inputs, ...(witnesses ? { witnesses } : {}) });
  io.stdout(`${JSON.stringify(verdict)}\n`);
  return verdict.ok ? EXIT.OK : EXIT.NOT_OK;
}
