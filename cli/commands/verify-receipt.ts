/**
 * `docket verify-receipt` (docs/verify.md "Receipts", "Saved results"; USAGE below): a docket.receipt/1 verified
 * offline with core/ledger's verifyReceipt, or a saved result audited against the live stage with auditPromise
 * (ADR 0291). ONE JSON line; exit 0 ok, 1 not ok, 2 no verdict, 3 not yet (no checkpoint covers the saved entry).
 */
import { EXIT, flagTable, parseCommandArgs, parsePositiveInteger, readCommandLine, reportUsage } from '../args.js';
import { readBytesOrError, type CliIo } from '../io.js';
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
import { auditPromise, type ReceiptVerdict, type TrustPolicy } from '../../core/ledger/index.js';
import { readSavedResult } from '../../core/pipeline/index.js';
import { resolveSettings, SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { explainStackError, openStack } from '../../stack/clients.js';
import { terminalText } from '../terminal-text.js';

const USAGE = `docket verify-receipt <receipt.json | saved-result> [--policy <trust-policy.json>] [--witnesses <witness-policy.json>]
                      [--pack <file>] [--facts <file>] [--evidence <file>] [--request <file>] [--graph <file>] [--inputs <file>]
                      [--wait [--timeout <s>]]
  Verifies the receipt offline under the trust policy (default .docket/local/trust-policy.json): entry signature and
  key, inclusion proof, checkpoint signature, key role and validity, authority, the checkpoint note; with --witnesses
  a quorum of the witness policy's witnesses must have cosigned the checkpoint; each input file given must have the
  SHA-256 the entry recorded. Prints one line of JSON {ok, findings}; exit 0 ok, 1 not ok, 2 no verdict.
  A saved result (a docket.result/2 notification, or the line submit --wait --json printed) is audited against the
  live stage (stack options below): once a checkpoint covers the entry's seq, its inclusion is proven, or the
  finding entry-omitted names the leaf the checkpoint holds there instead (exit 1). Before that it prints
  {"ok":false,"notYet":…} and exits 3; rerun later, or --wait polls until a checkpoint covers it (--timeout, default
  60 s).
${SETTINGS_HELP}`;

const DEFAULT_WAIT_SECONDS = 60;
const POLL_MS = 2_000;

/** Why no verdict could be reached: a file that could not be read or is not the format it must be. */
export const RECEIPT_NO_VERDICT_CODES = [
  'receipt-unreadable',
  'policy-unreadable',
  'witness-policy-unreadable',
  'input-unreadable',
  'stage-unreadable',
] as const;
type NoVerdictCode = (typeof RECEIPT_NO_VERDICT_CODES)[number];

const INPUTS: readonly ReceiptInput[] = ['pack', 'facts', 'evidence', 'request', 'graph', 'inputs'];

export async function run(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(io, 'verify-receipt', USAGE, () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      { ...SETTING_FLAGS, ...flagTable(['timeout', 'policy', 'witnesses', ...INPUTS], ['wait']) },
      USAGE,
      { min: 1, max: 1 },
    );
    return { values, path: positionals[0] as string };
  });
  if (!line.ok) return line.exit;
  const { values, path } = line.args;
  const noVerdict = (code: NoVerdictCode, detail: string) => reportNoVerdict(io, 'verify-receipt', { code, detail });

  const receiptBytes = await readBytesOrError(path);
  if (receiptBytes instanceof Error) return noVerdict('receipt-unreadable', `${path}: ${receiptBytes.message}`);
  const receipt = readReceipt(receiptBytes);
  const saved = receipt.ok ? undefined : readSavedResult(receiptBytes);
  if (!receipt.ok && !saved?.ok)
    return noVerdict(
      'receipt-unreadable',
      `${path}: not a receipt (${receipt.error.detail}) nor a saved result (${saved?.ok === false ? saved.error.detail : ''})`,
    );
  if (receipt.ok && (values.wait !== undefined || values.timeout !== undefined))
    return usageError(io, '--wait and --timeout go with a saved result, not a receipt');

  const policyPath = typeof values.policy === 'string' ? values.policy : localPaths().trustPolicy;
  const policyBytes = await readBytesOrError(policyPath);
  if (policyBytes instanceof Error) return noVerdict('policy-unreadable', `${policyPath}: ${policyBytes.message}`);
  const policy = readTrustPolicy(policyBytes);
  if (!policy.ok) return noVerdict('policy-unreadable', `${policyPath}: ${policy.error.detail}`);

  let witnesses: WitnessPolicy | undefined;
  if (typeof values.witnesses === 'string') {
    const b = await readBytesOrError(values.witnesses);
    if (b instanceof Error) return noVerdict('witness-policy-unreadable', `${values.witnesses}: ${b.message}`);
    const w = readWitnessPolicy(b);
    if (!w.ok) return noVerdict('witness-policy-unreadable', `${values.witnesses}: ${w.error.detail}`);
    witnesses = w.value;
  }

  const inputs: Partial<Record<ReceiptInput, Uint8Array>> = {};
  for (const name of INPUTS) {
    const file = values[name];
    if (typeof file !== 'string') continue;
    const b = await readBytesOrError(file);
    if (b instanceof Error) return noVerdict('input-unreadable', `--${name} ${file}: ${b.message}`);
    inputs[name] = b;
  }

  const options = { inputs, ...(witnesses ? { witnesses } : {}) };
  if (!receipt.ok) {
    const seconds = typeof values.timeout === 'string' ? parsePositiveInteger(values.timeout, '--timeout') : undefined;
    if (seconds !== undefined && values.wait !== true) return usageError(io, '--timeout goes with --wait');
    const deadline = values.wait === true ? Date.now() + (seconds ?? DEFAULT_WAIT_SECONDS) * 1000 : 0;
    return auditSaved(io, saved?.ok ? saved.value.entry : '', policy.value, options, values, deadline);
  }
  const verdict = verifyReceipt(receipt.value, policy.value, options);
  return printVerdict(io, verdict);
}

function printVerdict(io: CliIo, verdict: ReceiptVerdict): number {
  io.stdout(`${JSON.stringify(verdict)}\n`);
  return verdict.ok ? EXIT.OK : EXIT.NOT_OK;
}

const usageError = (io: CliIo, message: string): number => reportUsage(io, 'verify-receipt', message, USAGE);

/** The saved entry's promise audited against the live stage, polled until `deadline` while no checkpoint covers it. */
async function auditSaved(
  io: CliIo,
  entry: string,
  policy: TrustPolicy,
  options: Parameters<typeof verifyReceipt>[2],
  values: Record<string, unknown>,
  deadline: number,
): Promise<number> {
  const settings = resolveSettings(values as never, process.env);
  const stack = openStack(settings);
  try {
    for (;;) {
      const audit = await auditPromise(stack.store, entry, policy, options);
      if (audit.status === 'verdict') return printVerdict(io, audit.verdict);
      if (Date.now() + POLL_MS > deadline) {
        const { status: code, ...at } = audit;
        io.stdout(`${JSON.stringify({ ok: false, notYet: { code, ...at } })}\n`);
        io.stderr(
          `docket verify-receipt: ${terminalText(`no checkpoint of log ${audit.logId} covers seq ${audit.seq} yet`)}; rerun later (or --wait)\n`,
        );
        return EXIT.NOT_CHECKPOINTED;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } catch (e) {
    return reportNoVerdict(io, 'verify-receipt', { code: 'stage-unreadable', detail: explainStackError(e, settings) });
  } finally {
    stack.close();
  }
}
