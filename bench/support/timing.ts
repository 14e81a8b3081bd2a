/** Timing figures the benches share: best-of rates, baselines, rounds and medians. */
import { createHash } from 'node:crypto';
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

/** The fastest of `runs` timings, in ms, that `f` returns. */
export async function bestMs(f: () => number | Promise<number>, runs: number): Promise<number> {
  let m = Infinity;
  for (let i = 0; i < runs; i++) m = Math.min(m, await f());
  return m;
}

/** The verification benches' same-run baseline: ms to SHA-256 each stored body once (what verify must at least read). */
export function sha256Ms(entries: readonly { readonly body: string }[]): number {
  const start = performance.now();
  let x = 0;
  for (const r of entries) x ^= createHash('sha256').update(r.body).digest()[0] as number;
  if (x === 256) throw new Error('unreachable');
  return performance.now() - start;
}

/** Seconds `rounds` calls of `body` take, in a row. */
export function secondsOf(rounds: number, body: () => void): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) body();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** The fastest of `runs` timings of `reps` calls of `body` in a row, in ms per call. */
export const bestMsPerCall = (runs: number, reps: number, body: () => void): number =>
  Math.min(...Array.from({ length: runs }, () => (secondsOf(reps, body) * 1e3) / reps));

/** The upper median of `xs` (the middle one of an odd count). */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
