import { performance } from 'node:perf_hooks';
/**
 * Calls per second of a synchronous check, best of three runs of `reps` calls (the figure least disturbed by the
 * rest of the machine); a check that answers false stops the bench, so a rate is never measured on a failure.
 */
export function bestPerSecond(f: () => boolean, reps: number): number {
  let best = 0;
  for (let run = 0; run < 3; run++) {
    const s = performance.now();
    for (let i = 0; i < reps; i++) if (!f()) throw new Error('a check failed while being measured');
    best = Math.max(best, reps / ((performance.now() - s) / 1000));
  }
  return best;
}
