/**
 * What a recorded entry owes the outside world, sent from the entry itself: every planned handoff, in order, then the
 * result notification (docs/adr/0171-result-publish-retried-with-the-handoffs.md). Handoff and notification ids are
 * derived from the entry, so a second delivery of the same entry — a redelivered request, or a delivery job sent
 * again — re-sends the same messages under the same ids (ADR 0074).
 */
import type { Disposition } from '../evaluate/types.js';
import { planGraphHandoffs } from './graph-handoffs.js';
import { handoffMessagesFor } from './handoff-message.js';
import { planHandoffs, type PlannedHandoff, type RouteQueueConfig } from './handoff-plan.js';
import type { HandoffSender, LoadedPack, PackSource, RecordedEntry, ResultPublisher } from './ports.js';
import { resultNotificationFor } from './result-notification.js';

export interface FanOutPorts {
  readonly packs: PackSource;
  readonly handoffs: HandoffSender;
  /** The results topic; absent, no notification is published (a deployment without one). */
  readonly results?: ResultPublisher;
}

export interface FannedOut {
  readonly handoffs: (PlannedHandoff & { handoffId: string })[];
  /** The notification published for the entry (its entry hash), when a results topic is configured. */
  readonly notificationId?: string;
}

/** Sends the entry's handoffs, then publishes its notification; a failed send or publish throws. */
export async function deliverRecorded(
  recorded: RecordedEntry,
  config: RouteQueueConfig,
  ports: FanOutPorts,
): Promise<FannedOut> {
  const handoffs = await fanOut(recorded, config, ports);
  if (ports.results === undefined) return { handoffs };
  const message = resultNotificationFor(recorded);
  await ports.results.publish(message);
  return { handoffs, notificationId: message.id };
}

/** Sends every planned handoff of a recorded disposition, in order; the ids are deterministic, so re-sends dedupe. */
async function fanOut(
  recorded: RecordedEntry,
  config: RouteQueueConfig,
  ports: FanOutPorts,
): Promise<(PlannedHandoff & { handoffId: string })[]> {
  const e = recorded.entry;
  if (e.kind === 'graph-run') {
    // Every requested handoff at any depth, from the signed run text (ADR 0361).
    const plan = planGraphHandoffs(e, config).map(({ leaf: _leaf, ...h }) => h);
    return send(recorded, plan, ports);
  }
  if (e.kind !== 'disposition' || e.disposition.handoff.state !== 'requested') return [];
  const disposition: Disposition = e.disposition;
  let target: LoadedPack['target'];
  if (disposition.handoff.routes === undefined && e.pack !== null) {
    // Target-only packs: §8.3 "a consumer reads that target from the pack".
    const loaded = await ports.packs.load(e.pack.digest);
    target = loaded.status === 'found' ? loaded.pack.target : undefined;
  }
  return send(recorded, planHandoffs(disposition, target, config), ports);
}

async function send(
  recorded: RecordedEntry,
  plan: readonly PlannedHandoff[],
  ports: FanOutPorts,
): Promise<(PlannedHandoff & { handoffId: string })[]> {
  const messages = handoffMessagesFor(recorded, plan);
  const sent: (PlannedHandoff & { handoffId: string })[] = [];
  for (const [i, h] of plan.entries()) {
    const { id, body } = messages[i]!;
    await ports.handoffs.send(h.queue, id, body, h.target ? `${h.target.kind}:${h.target.name}` : 'unrouted');
    sent.push({ ...h, handoffId: id });
  }
  return sent;
}
