/**
 * Which log a new request is offered. Any configured log is correct — the claim fixes the log for every later
 * delivery of the request (ADR 0160) — so the rule only decides how load spreads. selectLog: index = (first 8 bytes
 * of SHA-256(UTF-8 key), big-endian) mod N over the configured ids, deduplicated and sorted (so listing order does
 * not matter) and validated. The sequence function groups each ledger message on the log of its digest
 * (core/pipeline/sequencing.ts, ADR 0497), and the append protocol offers a request to the log of its id when the
 * caller names no log.
 */
import { ledgerCrypto } from '../primitives/crypto-port.js';
import { LOG_ID_PATTERN } from '../entries/entry-rules.js';

/** The configured log ids as every rule reads them: deduplicated, sorted, each a valid log id. */
export function configuredLogs(logIds: readonly string[]): readonly string[] {
  if (logIds.length === 0) throw new RangeError('at least one log id is configured');
  const sorted = [...new Set(logIds)].sort();
  for (const id of sorted)
    if (!LOG_ID_PATTERN.test(id)) throw new RangeError(`log id ${JSON.stringify(id)} is not a valid log id`);
  return sorted;
}

export function selectLog(key: string, logIds: readonly string[]): string {
  const sorted = configuredLogs(logIds);
  // Through the crypto port, not node:crypto, so core/ledger's index loads in a browser too (ADR 0185).
  const digest = ledgerCrypto().sha256(new TextEncoder().encode(key));
  const index = new DataView(digest.buffer, digest.byteOffset, 8).getBigUint64(0) % BigInt(sorted.length);
  return sorted[Number(index)] as string;
}
