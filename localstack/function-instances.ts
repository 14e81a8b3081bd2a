/**
 * How many instances of a function the local stack runs, and each instance's share of an event source's
 * MaximumConcurrency (ADR 0259). Lambda runs up to MaximumConcurrency execution environments of a function, each with
 * its own module state; the local stack runs a few worker threads for them, splitting the template's concurrency so
 * that the concurrent invocations of all instances together stay what the template says.
 */
/** The environment variable that sets the instance count when no option does. */
export const FUNCTION_INSTANCES_ENV = 'DOCKET_FUNCTION_INSTANCES';
/** Most instances the local stack runs: each is a V8 isolate with the handler, the SDK and a 64 MB young generation. */
export const MAX_FUNCTION_INSTANCES = 16;

export class FunctionInstancesError extends Error {
  readonly code = 'function-instances-invalid';
}

/**
 * The default: one instance. Two instances of the evaluate function append to the same logs (each takes the
 * template's logs in turn) and lose slots to each other on nearly every append, which on the local stack's
 * shared cores cost more than the second thread gains (ADR 0259 has the measurement).
 */
export const DEFAULT_FUNCTION_INSTANCES = 1;

/** The option if given, else the environment's DOCKET_FUNCTION_INSTANCES, else the default; a bad value is an error. */
export function resolveFunctionInstances(
  option: number | undefined,
  env: Readonly<Record<string, string | undefined>>,
): number {
  if (option !== undefined) return checked(option, 'functionInstances');
  const raw = env[FUNCTION_INSTANCES_ENV]?.trim();
  if (raw !== undefined && raw !== '') {
    if (!/^\d+$/.test(raw))
      throw new FunctionInstancesError(`${FUNCTION_INSTANCES_ENV} must be a whole number, got ${JSON.stringify(raw)}`);
    return checked(Number(raw), FUNCTION_INSTANCES_ENV);
  }
  return DEFAULT_FUNCTION_INSTANCES;
}

function checked(n: number, what: string): number {
  if (!Number.isInteger(n) || n < 1 || n > MAX_FUNCTION_INSTANCES)
    throw new FunctionInstancesError(`${what} must be 1–${MAX_FUNCTION_INSTANCES}, got ${n}`);
  return n;
}

/**
 * Instance `index`'s (0-based) share of `total` concurrent invocations split over `count` instances: as even as
 * whole numbers allow, the first ones taking the remainder, so the shares add up to `total` exactly. An instance
 * whose share is 0 does not poll that source.
 */
export function concurrencyShare(total: number, index: number, count: number): number {
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
}

/**
 * The instances worth starting: never more than the largest concurrency of the sources they poll (an instance with
 * no share of any source would sit idle), never fewer than one.
 */
export function instancesFor(requested: number, concurrencies: readonly number[]): number {
  return Math.max(1, Math.min(requested, Math.max(1, ...concurrencies)));
}
