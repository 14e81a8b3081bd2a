/**
 * What every AWS batch call (SQS SendMessageBatch and DeleteMessageBatch, SNS PublishBatch) shares: entries grouped
 * into calls under the service's entry and byte limits, in order, and per-entry retries — a batch call answers 200
 * even when some of its entries failed, so only those are retried (transient faults, with backoff).
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface FailedEntry {
  readonly id: string;
  readonly code: string;
  readonly message: string;
  readonly senderFault: boolean;
}

/** A batch answer's `Failed` list (SQS and SNS share its shape) as FailedEntry values; absent fields get neutral ones. */
export function failedEntries(
  failed: readonly { Id?: string; Code?: string; Message?: string; SenderFault?: boolean }[] | undefined,
): FailedEntry[] {
  return (failed ?? []).map((f) => ({
    id: f.Id ?? '',
    code: f.Code ?? 'Unknown',
    message: f.Message ?? '',
    senderFault: f.SenderFault === true,
  }));
}

export interface RetryOptions {
  /** Attempts per failed entry, the first included (default 4). Sender faults are not retried. */
  readonly maxAttempts?: number;
  /** Base backoff in ms, doubled per attempt (default 50). */
  readonly backoffMs?: number;
}

/** Groups entries into calls of at most `maxEntries` and `maxBytes` (as `sizeOf` counts them), keeping their order. */
export function chunkEntries<T>(
  entries: readonly T[],
  sizeOf: (entry: T) => number,
  maxEntries: number,
  maxBytes: number,
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const m of entries) {
    const size = sizeOf(m);
    if (current.length > 0 && (current.length === maxEntries || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(m);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Calls `attempt` with the pending entries until none failed transiently or `maxAttempts` is spent. */
export async function withRetries<T extends { id: string }>(
  entries: readonly T[],
  retry: RetryOptions,
  attempt: (pending: readonly T[]) => Promise<FailedEntry[]>,
): Promise<FailedEntry[]> {
  const maxAttempts = retry.maxAttempts ?? 4;
  const backoffMs = retry.backoffMs ?? 50;
  let pending = entries;
  const permanent: FailedEntry[] = [];
  let transient: FailedEntry[] = [];
  for (let n = 1; n <= maxAttempts && pending.length > 0; n++) {
    if (n > 1) await sleep(backoffMs * 2 ** (n - 2));
    const failures = await attempt(pending);
    permanent.push(...failures.filter((f) => f.senderFault));
    transient = failures.filter((f) => !f.senderFault);
    const retryIds = new Set(transient.map((f) => f.id));
    pending = pending.filter((e) => retryIds.has(e.id));
  }
  return [...permanent, ...transient];
}
