/**
 * Subscription filter policies that select the result notifications of given request ids
 * (docs/adr/0173-submit-wait-listens-on-a-filtered-queue.md). SNS allows at most 150 values across one filter
 * policy; each policy here carries at most FILTER_POLICY_MAX_VALUES request ids, so a batch of any size becomes
 * several subscriptions of one queue.
 */
export const FILTER_POLICY_MAX_VALUES = 100;

/** The filter policies (JSON text) for `requestIds`, duplicates dropped, in chunks of FILTER_POLICY_MAX_VALUES ids. */
export function requestIdFilterPolicies(requestIds: readonly string[]): string[] {
  const ids = [...new Set(requestIds)];
  const out: string[] = [];
  for (let i = 0; i < ids.length; i += FILTER_POLICY_MAX_VALUES)
    out.push(JSON.stringify({ requestId: ids.slice(i, i + FILTER_POLICY_MAX_VALUES) }));
  return out;
}
