/**
 * Which ledger log a request lands in (docs/adr/0073-log-selection-by-request-id.md). Deterministic in the request
 * id alone, so every redelivery of one request goes to the same log without a lookup, and load spreads evenly over
 * the logs (one log is one hash chain and one hot DynamoDB partition, capped at a few hundred appends/s).
 */
import { createHash } from 'node:crypto';

export function selectLog(requestId: string, logIds: readonly string[]): string {
  if (logIds.length === 0) throw new RangeError('no ledger log ids configured (LOG_IDS is empty)');
  const h = createHash('sha256').update('docket.log-select/1\n').update(requestId, 'utf8').digest();
  // 48 bits of the digest: uniform enough for up to 64 logs, exact in a double.
  const n = h.readUIntBE(0, 6);
  return logIds[n % logIds.length]!;
}
