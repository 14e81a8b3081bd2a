/**
 * Log selection for a new request (docs/adr/0053-log-selection.md): a pure function of the request id over the
 * configured log ids. The configured ids are sorted first, so the order they are listed in does not matter:
 *   index = (first 8 bytes of SHA-256(UTF-8 request id), big-endian) mod N
 * Only a request's first sight uses it: the claim then fixes the log, so a later change of the configured set never
 * moves a request that was already claimed.
 */
import { createHash } from 'node:crypto';
import { LOG_ID_PATTERN } from './entry-rules.js';

export function selectLog(requestId: string, logIds: readonly string[]): string {
  if (logIds.length === 0) throw new RangeError('at least one log id is configured');
  const sorted = [...new Set(logIds)].sort();
  for (const id of sorted)
    if (!LOG_ID_PATTERN.test(id)) throw new RangeError(`log id ${JSON.stringify(id)} is not a valid log id`);
  const digest = createHash('sha256').update(requestId, 'utf8').digest();
  const index = digest.readBigUInt64BE(0) % BigInt(sorted.length);
  return sorted[Number(index)] as string;
}
