/**
 * Which deliveries of one consumer run are repeats: SQS delivers at least once and the pipeline may send a handoff
 * again after a crash (ADR 0074), so a consumer dedupes on handoffId. `docket handoffs` prints a handoff id once per
 * run and acknowledges its repeats (docs/adr/0300-handoff-consumers-check-the-route-queue.md). Only verified
 * handoffs are remembered: the id of a message that failed verification proves nothing, and letting it mark a genuine
 * one as a repeat would let a forger suppress it.
 */
export class HandoffRepeats {
  private readonly seen = new Set<string>();

  /** True the first time a handoff id is offered in this run, false for every repeat. */
  first(handoffId: string): boolean {
    if (this.seen.has(handoffId)) return false;
    this.seen.add(handoffId);
    return true;
  }
}

/** For a sequence of verified handoff ids: 'first' or 'repeat' each, as one run would judge them. */
export function deliveriesOf(handoffIds: readonly string[]): ('first' | 'repeat')[] {
  const r = new HandoffRepeats();
  return handoffIds.map((id) => (r.first(id) ? 'first' : 'repeat'));
}
