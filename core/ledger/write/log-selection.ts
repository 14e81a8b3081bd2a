/**
 * Which log a new request is offered: every rule in one place. Any configured log is correct — the claim fixes the
 * log for every later delivery of the request (ADR 0160) — so a rule only decides how load spreads.
 *   logsInTurn — a writer's rule for tools and tests: the configured logs taken in turn from an offset the caller
 *     passes (the Lambda edge draws one per cold start), so concurrent records of one writer never share a log.
 *   selectLog — the deployed rule, the sequencer's message group (docs/adr/0270-one-writer-per-log.md):
 *     index = (first 8 bytes of SHA-256(UTF-8 request id), big-endian) mod N over the sorted ids.
 * Both read the configured ids the same way: deduplicated, sorted (so listing order does not matter), validated.
 */
import { ledgerCrypto } from '../primitives/crypto-port.js';
import { LOG_ID_PATTERN } from '../entries/entry-rules.js';

/** Chooses the log offered to a new request. Injectable into the pipeline's ledger writer. */
export type LogChooser = (requestId: string) => string;

/** The configured log ids as every rule reads them: deduplicated, sorted, each a valid log id. */
export function configuredLogs(logIds: readonly string[]): readonly string[] {
  if (logIds.length === 0) throw new RangeError('at least one log id is configured');
  const sorted = [...new Set(logIds)].sort();
  for (const id of sorted)
    if (!LOG_ID_PATTERN.test(id)) throw new RangeError(`log id ${JSON.stringify(id)} is not a valid log id`);
  return sorted;
}

export function selectLog(requestId: string, logIds: readonly string[]): string {
  const sorted = configuredLogs(logIds);
  // Through the crypto port, not node:crypto, so core/ledger's index loads in a browser too (ADR 0185).
  const digest = ledgerCrypto().sha256(new TextEncoder().encode(requestId));
  const index = new DataView(digest.buffer, digest.byteOffset, 8).getBigUint64(0) % BigInt(sorted.length);
  return sorted[Number(index)] as string;
}

/** The configured logs in turn, starting at `offset` (any integer; taken modulo the number of logs). */
export function logsInTurn(logIds: readonly string[], offset = 0): LogChooser {
  const logs = configuredLogs(logIds);
  if (!Number.isSafeInteger(offset)) throw new RangeError('the log offset is a safe integer');
  let turn = ((offset % logs.length) + logs.length) % logs.length;
  return () => {
    const log = logs[turn] as string;
    turn = (turn + 1) % logs.length;
    return log;
  };
}
