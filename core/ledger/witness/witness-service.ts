/**
 * One witness over its state: requests are taken one at a time, so the check of the old size and the update of the
 * stored checkpoint are atomic, and a new state is persisted (by the injected `persist`, e.g. temp file + rename)
 * before the response is returned (tlog-witness "add-checkpoint"). If persisting fails the error propagates, no
 * cosignature leaves, and the state in memory stays the old one.
 */
import { witnessAddCheckpoint, type AddCheckpointOutcome, type WitnessContext } from './add-checkpoint.js';
import type { WitnessState } from './witness-state.js';

export class WitnessService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private state: WitnessState,
    private readonly context: Omit<WitnessContext, 'now'>,
    /** Seconds since the epoch, from the caller's clock. */
    private readonly now: () => number,
    private readonly persist: (state: WitnessState) => Promise<void>,
  ) {}

  current(): WitnessState {
    return this.state;
  }

  addCheckpoint(body: string): Promise<AddCheckpointOutcome> {
    const run = this.queue.then(async () => {
      const out = witnessAddCheckpoint(body, this.state, { ...this.context, now: this.now() });
      if (out.state !== null) {
        await this.persist(out.state);
        this.state = out.state;
      }
      return out;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
