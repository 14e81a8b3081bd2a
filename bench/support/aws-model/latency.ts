/**
 * One latency distribution of the AWS scale model, fixed by the quantiles a published measurement gives as
 * docs/adr/0470-calibrated-latency-profiles.md decides, drawn from a seeded PRNG (bench/support/seeded-prng.ts) so
 * every run draws the same sequence. A draw is Q(Φ(Z)) with Z standard normal (Box–Muller), ln Q piecewise linear in z
 * between the declared quantiles; the clamp keeps a single draw from running away with a short run's mean.
 */

/** The standard normal distribution's 99th percentile. */
export const Z99 = 2.3263478740408408;
/** The standard normal distribution's 90th percentile. */
export const Z90 = 1.2815515655446004;
/** Draws are clamped to the 0.1st and 99.9th percentiles. */
export const Z_CLAMP = 3.090232306167813;

export interface LatencyShape {
  readonly p10Ms?: number;
  readonly p50Ms: number;
  readonly p90Ms?: number;
  readonly p99Ms: number;
}

/** The declared quantiles as (z, ln ms) knots, in order; throws unless 0 < p10 ≤ p50 ≤ p90 ≤ p99. */
function knots(shape: LatencyShape): [number, number][] {
  const points: [number, number | undefined][] = [
    [-Z90, shape.p10Ms],
    [0, shape.p50Ms],
    [Z90, shape.p90Ms],
    [Z99, shape.p99Ms],
  ];
  const declared = points.filter((p): p is [number, number] => p[1] !== undefined);
  const ok = declared.every(([, ms], i) => ms > 0 && (i === 0 || ms >= declared[i - 1]![1]));
  if (!ok) throw new RangeError(`latency needs 0 < p10 ≤ p50 ≤ p90 ≤ p99, got ${JSON.stringify(shape)} (ms)`);
  return declared.map(([z, ms]) => [z, Math.log(ms)]);
}

/** The distribution's quantile at standard normal z (clamped): log-linear between knots, along the end segments beyond. */
function atZ(k: readonly [number, number][], z: number): number {
  const c = Math.max(-Z_CLAMP, Math.min(Z_CLAMP, z));
  let i = 0;
  while (i < k.length - 2 && c > k[i + 1]![0]) i++;
  const [z0, l0] = k[i]!;
  const [z1, l1] = k[i + 1]!;
  return Math.exp(l0 + ((c - z0) * (l1 - l0)) / (z1 - z0));
}

export function quantileLatency(shape: LatencyShape, rand: () => number): () => number {
  const k = knots(shape);
  return () => {
    // 1 - rand() is in (0, 1], so the logarithm is finite.
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    return atZ(k, z);
  };
}

/** The distribution's mean (numerically, over z): what a long serial chain of such calls costs per call on average. */
export function latencyMeanMs(shape: LatencyShape): number {
  const k = knots(shape);
  const step = 0.001;
  let sum = 0;
  let weight = 0;
  for (let z = -8; z <= 8; z += step) {
    const w = Math.exp(-(z * z) / 2);
    sum += w * atZ(k, z);
    weight += w;
  }
  return sum / weight;
}
