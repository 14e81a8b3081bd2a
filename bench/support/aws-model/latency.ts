/**
 * Per-call network latency of the AWS scale model: lognormal, fixed by its median and 99th percentile (default p50
 * 4 ms, p99 15 ms: an in-region DynamoDB or SQS call, docs/adr/0280-aws-scale-model.md), drawn from a seeded PRNG
 * (bench/support/seeded-prng.ts) so every run draws the same sequence.
 *
 *   ln X ~ N(μ, σ²) with μ = ln p50 and σ = ln(p99 / p50) / z₀.₉₉ (z₀.₉₉ = 2.3263…, the standard normal's 99th
 *   percentile); a draw is p50 · exp(σ · Z), Z standard normal by Box–Muller.
 */

/** The standard normal distribution's 99th percentile. */
export const Z99 = 2.3263478740408408;

export interface LatencyShape {
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export function lognormalLatency(shape: LatencyShape, rand: () => number): () => number {
  if (!(shape.p50Ms > 0) || !(shape.p99Ms >= shape.p50Ms))
    throw new RangeError(`latency needs 0 < p50 ≤ p99, got p50 ${shape.p50Ms} ms, p99 ${shape.p99Ms} ms`);
  const sigma = Math.log(shape.p99Ms / shape.p50Ms) / Z99;
  return () => {
    // 1 - rand() is in (0, 1], so the logarithm is finite.
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    return shape.p50Ms * Math.exp(sigma * z);
  };
}

/** The distribution's mean, p50 · exp(σ²/2): what a long serial chain of calls costs per call on average. */
export function lognormalMeanMs(shape: LatencyShape): number {
  const sigma = Math.log(shape.p99Ms / shape.p50Ms) / Z99;
  return shape.p50Ms * Math.exp((sigma * sigma) / 2);
}
