/**
 * Which deliveries a consumer has seen: SQS delivers at least once, the pipeline may send a handoff again after a
 * crash, and a delivery job replayed by anyone who can write the delivery queue re-sends recorded handoffs under the
 * same ids (ADR 0074, docs/adr/0404-delivery-stage.md), so a consumer dedupes on handoffId. `docket handoffs` prints
 * a handoff id once and acknowledges its repeats (docs/adr/0300-handoff-consumers-check-the-route-queue.md), across
 * runs when it is given the ids an earlier run remembered (core/pipeline/handoffs-seen.ts). Only verified handoffs
 * are remembered: the id of a message that failed verification proves nothing, and letting it mark a genuine one as a
 * repeat would let a forger suppress it.
 */
export class HandoffRepeats {
  private readonly seen: Set<string>;

  /** `remembered`: ids an earlier run printed (oldest first); absent, the memory starts empty. */
  constructor(remembered: Iterable<string> = []) {
    this.seen = new Set(remembered);
  }

  /** True the first time a handoff id is offered (in this run or a remembered one), false for every repeat. */
  first(handoffId: string): boolean {
    if (this.seen.has(handoffId)) return false;
    this.seen.add(handoffId);
    return true;
  }

  /** Every id seen, oldest first: what a consumer keeps for its next run. */
  remembered(): string[] {
    return [...this.seen];
  }
}
