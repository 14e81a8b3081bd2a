/**
 * What a recorded entry owes the outside world, computed from the entry itself: every planned handoff, in order, and
 * the result notification, sent in that order by the outbox (outbox.ts; docs/adr/0171-result-publish-retried-with-the-handoffs.md).
 * Handoff and notification ids are derived from the entry, so a second delivery of the same entry — a delivery job
 * sent again — re-sends the same messages under the same ids (ADR 0074).
 */
import { planGraphHandoffs } from './graph-handoffs.js';
import { handoffMessagesFor } from './handoff-message.js';
import { planHandoffs, routeKey, type PlannedHandoff, type RouteQueueConfig } from './handoff-plan.js';
import type { LoadedPack } from '../admission/index.js';
import type { OutboxHandoff, PackSource, RecordedEntry } from './ports.js';
import { resultNotificationFor, type ResultMessage } from './result-notification.js';

/** One handoff an entry owes: where it goes (handoff-plan.ts) and the message that goes there. */
export type OwedHandoff = PlannedHandoff & OutboxHandoff;

export interface OwedMessages {
  readonly handoffs: readonly OwedHandoff[];
  readonly notification: ResultMessage;
}

/** The entry's handoffs and notification; the ids are deterministic, so re-sends dedupe. */
export async function messagesOwed(
  recorded: RecordedEntry,
  config: RouteQueueConfig,
  packs: PackSource,
): Promise<OwedMessages> {
  const plan = await planOf(recorded, config, packs);
  const messages = handoffMessagesFor(recorded, plan);
  const handoffs = plan.map((h, i) => ({
    ...h,
    handoffId: messages[i]!.id,
    body: messages[i]!.body,
    routeKey: h.target ? routeKey(h.target) : 'unrouted',
  }));
  return { handoffs, notification: resultNotificationFor(recorded) };
}

async function planOf(
  recorded: RecordedEntry,
  config: RouteQueueConfig,
  packs: PackSource,
): Promise<readonly PlannedHandoff[]> {
  const e = recorded.entry;
  // Every requested handoff at any depth, from the signed run text (ADR 0361).
  if (e.kind === 'graph-run') return planGraphHandoffs(e, config).map(({ leaf: _leaf, ...h }) => h);
  if (e.kind !== 'disposition' || e.disposition.handoff.state !== 'requested') return [];
  let target: LoadedPack['target'];
  if (e.disposition.handoff.routes === undefined && e.pack !== null) {
    // Target-only packs: §8.3 "a consumer reads that target from the pack".
    const loaded = await packs.load(e.pack.digest);
    target = loaded.status === 'found' ? loaded.pack.target : undefined;
  }
  return planHandoffs(e.disposition, target, config);
}
