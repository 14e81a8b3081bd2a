/**
 * The AWS SDK v3 standard retry strategy as the scale model applies it to a throttled DynamoDB call, with the
 * constants of the installed SDK (read 2026-12-04 from node_modules/@smithy/core, version 3.41.1):
 *   - dist-es/submodules/retry/util-retry/StandardRetryStrategy.js: a throttling error is retried while the
 *     attempts made are fewer than maxAttempts and the client's retry quota holds the retry's cost; a success
 *     returns the cost (or 1, NO_RETRY_INCREMENT) to the quota, which never exceeds INITIAL_RETRY_TOKENS;
 *   - util-retry/retries-2026-config.js: throttling delay base 1,000 ms (Retry.throttlingDelay), throttling retry
 *     cost 5 (Retry.throttlingCost);
 *   - util-retry/DefaultRetryBackoffStrategy.js: full jitter, delay = ⌊random · min(base · 2^retries, 20,000)⌋
 *     (MAXIMUM_RETRY_DELAY in util-retry/constants.js), retries = retries already made;
 *   - util-retry/constants.js: INITIAL_RETRY_TOKENS 500.
 * maxAttempts is 3: the project's clients set it (adapters/aws-clients.ts, "default 3"), overriding the DynamoDB
 * client's own default of 4 (@aws-sdk/client-dynamodb dist-es/runtimeConfig.js).
 */

export const SDK_STANDARD_RETRY = Object.freeze({
  maxAttempts: 3,
  throttlingBaseDelayMs: 1000,
  maxDelayMs: 20_000,
  initialRetryTokens: 500,
  throttlingRetryCost: 5,
  noRetryIncrement: 1,
});

/** The error a throttled call fails with (the name the SDK classifies as THROTTLING). */
export class ThrottlingError extends Error {
  override readonly name = 'ProvisionedThroughputExceededException';
  readonly code = 'throttled';
}

/** The delay before retry number `retries + 1` after a throttle: full jitter over the capped exponential. */
export function throttlingBackoffMs(retries: number, rand: () => number): number {
  const cap = Math.min(SDK_STANDARD_RETRY.throttlingBaseDelayMs * 2 ** retries, SDK_STANDARD_RETRY.maxDelayMs);
  return Math.floor(rand() * cap);
}

/** One SDK client's retry quota (one per simulated Lambda instance, as each holds its own client). */
export class RetryQuota {
  tokens: number = SDK_STANDARD_RETRY.initialRetryTokens;
}

export interface RetryContext {
  readonly sleep: (ms: number) => Promise<void>;
  readonly rand: () => number;
  readonly quota: RetryQuota;
}

/** Runs `call` under the standard strategy: throttles are retried after the jittered delay; anything else, or a throttle
 *  with no attempt or quota left, is thrown to the caller (the record then fails and is redelivered). */
export async function withSdkRetry<T>(call: () => Promise<T>, ctx: RetryContext): Promise<T> {
  let retries = 0;
  let cost: number | undefined;
  for (;;) {
    try {
      const out = await call();
      ctx.quota.tokens = Math.min(
        SDK_STANDARD_RETRY.initialRetryTokens,
        ctx.quota.tokens + (cost ?? SDK_STANDARD_RETRY.noRetryIncrement),
      );
      return out;
    } catch (e) {
      if (!(e instanceof ThrottlingError)) throw e;
      if (retries + 1 >= SDK_STANDARD_RETRY.maxAttempts) throw e;
      if (ctx.quota.tokens < SDK_STANDARD_RETRY.throttlingRetryCost) throw e;
      ctx.quota.tokens -= SDK_STANDARD_RETRY.throttlingRetryCost;
      cost = SDK_STANDARD_RETRY.throttlingRetryCost;
      await ctx.sleep(throttlingBackoffMs(retries, ctx.rand));
      retries += 1;
    }
  }
}
