/**
 * Deterministic PRNG (mulberry32) so generated cases and bench workloads are the same on every machine and every run:
 * seeded tests and benches never use Math.random. One copy for bench/ and test/ (this folder is compiled with bench/,
 * so the compiled benches can import it; core/ stays free of randomness).
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One element of `xs`, chosen by `rand`. */
export const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

/** A Fisher–Yates shuffled copy of `xs`, driven by `rand`. */
export function shuffle<T>(rand: () => number, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
