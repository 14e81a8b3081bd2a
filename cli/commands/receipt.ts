/**
 * `docket receipt <request-id>` (docs/verify.md "Receipts"; docs/adr/0175-portable-receipts.md; USAGE below): one
 * request's docket.receipt/1 — its stored entry, the RFC 9162 inclusion proof to a signed checkpoint covering it, that
 * checkpoint and its cosigned note. Exit 0 written, 1 unknown or refused, 3 not checkpointed yet.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { EXIT, flagTable, parseCommandArgs, readCommandLine, UsageError, fail } from '../args.js';
import type { CliIo } from '../io.js';
import {
  buildReceipt,
  readTrustPolicy,
  receiptText,
  signerFromKeyPair,
  type ReceiptBuildError,
} from '../../core/ledger/index.js';
import { describeRefusal, rfc3339Now, runCheckpoints } from '../../functions/lib/checkpoint-runner.js';
import { localPaths } from '../../stack/local-files.js';
import { parseSigningKey } from '../../adapters/signing-key.js';
import type { StackClients } from '../../stack/clients.js';
import { SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { onStack } from '../on-stack.js';
import { terminalText } from '../terminal-text.js';

const USAGE = `docket receipt <request-id> [--out <receipt.json>] [--checkpoint [--key <checkpoint-key.json>] [--policy <trust-policy.json>]] [--schedule <rate(…)>]
  Writes the request's docket.receipt/1 (stdout unless --out). When no checkpoint covers the entry yet, --checkpoint
  writes one first (local stack: the checkpoint key and trust policy under .docket/local/); without it the command
  says when the next scheduled checkpoint is due (--schedule, default the deployed default "rate(15 minutes)") and
  exits 3. Verify the receipt anywhere with \`docket verify-receipt\`.
${SETTINGS_HELP}`;

/** infra/config.ts's default checkpoint schedule; a deployment with another one passes --schedule. */
export const DEFAULT_SCHEDULE = 'rate(15 minutes)';

export async function run(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(io, 'receipt', USAGE, () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      { ...SETTING_FLAGS, ...flagTable(['out', 'key', 'policy', 'schedule'], ['checkpoint']) },
      USAGE,
      { min: 0, max: 1 },
    );
    if (positionals[0] === undefined) throw new UsageError('name a request id');
    if (values.checkpoint !== true && (values.key !== undefined || values.policy !== undefined))
      throw new UsageError('--key and --policy go with --checkpoint');
    const schedule = typeof values.schedule === 'string' ? values.schedule : DEFAULT_SCHEDULE;
    if (!/^(rate|cron)\(.+\)$/.test(schedule)) throw new UsageError('--schedule is an EventBridge rate(…) or cron(…)');
    return { values, requestId: positionals[0], schedule };
  });
  if (!line.ok) return line.exit;
  const { values, requestId, schedule } = line.args;
  return onStack(io, 'receipt', values, async (stack) => {
    let built = await buildReceipt(stack.store, requestId);
    if (!built.ok && built.error.code === 'not-checkpointed' && values.checkpoint === true) {
      const wrote = await checkpointLogNow(values, stack, built.error.position.logId, io);
      if (wrote !== EXIT.OK) return wrote;
      built = await buildReceipt(stack.store, requestId);
    }
    if (!built.ok) return explain(io, built.error, schedule);
    const text = receiptText(built.value);
    if (typeof values.out === 'string') {
      writeFileSync(values.out, text);
      io.stderr(`receipt of ${requestId} written to ${values.out}\n`);
    } else io.stdout(text);
    return EXIT.OK;
  });
}

function explain(io: CliIo, e: ReceiptBuildError, schedule: string): number {
  if (e.code !== 'not-checkpointed') return fail(io, 'receipt', terminalText(e.detail), EXIT.FAILED);
  return fail(
    io,
    'receipt',
    `${terminalText(e.detail)}; ${nextCheckpoint(e.newestCheckpointTime, schedule, Date.now())}`,
    EXIT.NOT_CHECKPOINTED,
  );
}

const UNIT_SECONDS: Record<string, number> = { minute: 60, hour: 3600, day: 86400 };

/** When the next scheduled checkpoint is due: the newest checkpoint's time plus the rate, when both are known. */
export function nextCheckpoint(newest: string | null, schedule: string, nowMs: number): string {
  const rate = /^rate\((\d+) (minutes?|hours?|days?)\)$/.exec(schedule);
  if (rate === null || newest === null)
    return `the checkpoint function runs on the schedule ${schedule}${newest === null ? ' and has not checkpointed this log yet' : ''}; run again after it, or pass --checkpoint on the local stack`;
  const due = Date.parse(newest) + Number(rate[1]) * (UNIT_SECONDS[rate[2]!.replace(/s$/, '')] ?? 60) * 1000;
  const when = new Date(due).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return due > nowMs
    ? `the next scheduled checkpoint (${schedule} after ${newest}) is due at ${when}; run again after it`
    : `the next scheduled checkpoint (${schedule} after ${newest}) was due at ${when} and is overdue; run again shortly`;
}

/** The verifying checkpoint writer over one log, as `docket checkpoint --logs <log>` runs it. */
async function checkpointLogNow(
  values: Record<string, unknown>,
  { store, settings }: StackClients,
  logId: string,
  io: CliIo,
): Promise<number> {
  const keyFile = typeof values.key === 'string' ? values.key : localPaths().checkpointKey;
  const policyFile = typeof values.policy === 'string' ? values.policy : localPaths().trustPolicy;
  let signer;
  let policyBytes: Uint8Array;
  try {
    signer = signerFromKeyPair(parseSigningKey(readFileSync(keyFile, 'utf8'), keyFile));
    policyBytes = new Uint8Array(readFileSync(policyFile));
  } catch (e) {
    return fail(io, 'receipt', `cannot use ${keyFile} / ${policyFile}: ${(e as Error).message}`, EXIT.FAILED);
  }
  const policy = readTrustPolicy(policyBytes);
  if (!policy.ok) return fail(io, 'receipt', `${policyFile}: ${policy.error.detail}`, EXIT.FAILED);
  const r = await runCheckpoints({
    store,
    signer,
    policy: policy.value,
    logIds: [logId],
    origin: { environment: settings.stage, table: settings.ledgerTable },
    time: rfc3339Now(),
  });
  for (const c of r.refused) io.stderr(`docket receipt: ${terminalText(describeRefusal(c))}\n`);
  return r.refused.length > 0 ? EXIT.FAILED : EXIT.OK;
}
