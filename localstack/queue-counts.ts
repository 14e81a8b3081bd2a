/**
 * How many messages wait on each of the stack's queues: what `docket local stop` reports after the stack drained and
 * what `docket local status` shows while it runs (ADR 0112). Read over the wire with GetQueueAttributes, so the
 * figures are the emulator's own.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { approximateDepth } from '../adapters/sqs.js';

export interface QueueCount {
  readonly queue: string;
  /** Visible: a consumer would receive them now. */
  readonly waiting: number;
  /** Received and not yet deleted: they reappear when their visibility timeout ends. */
  readonly inFlight: number;
  readonly delayed: number;
}

export async function queueCounts(sqs: SQSClient, queues: Readonly<Record<string, string>>): Promise<QueueCount[]> {
  const names = Object.keys(queues).sort();
  return Promise.all(
    names.map(async (queue) => {
      const d = await approximateDepth(sqs, queues[queue]!);
      return { queue, waiting: d.visible, inFlight: d.inFlight, delayed: d.delayed };
    }),
  );
}

/** One line per queue, e.g. `docket-local-intake  12 waiting (3 received and not yet deleted)`; empty ones summed up. */
export function formatQueueCounts(counts: readonly QueueCount[]): string {
  const busy = counts.filter((c) => c.waiting + c.inFlight + c.delayed > 0);
  const width = Math.max(0, ...busy.map((c) => c.queue.length));
  const lines = busy.map((c) => {
    const total = c.waiting + c.inFlight + c.delayed;
    const parts: string[] = [];
    if (c.inFlight > 0) parts.push(`${c.inFlight} received and not yet deleted`);
    if (c.delayed > 0) parts.push(`${c.delayed} delayed`);
    return `  ${c.queue.padEnd(width)}  ${total} waiting${parts.length > 0 ? ` (${parts.join(', ')})` : ''}\n`;
  });
  const empty = counts.length - busy.length;
  if (empty > 0) lines.push(`  ${busy.length > 0 ? 'other queues' : `all ${empty} queues`}: empty\n`);
  return lines.join('');
}
