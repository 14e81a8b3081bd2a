/**
 * Evaluation-work limits (§10, RFC 0008 "Limit accounting"). docs/limits.md documents every limit and
 * docs/adr/0034-work-budget-defaults.md the choice of these two numbers.
 */

/** Budget used when the caller names none. RFC 0008 mandates support for a configured budget of at least 100,000. */
export const DEFAULT_WORK_BUDGET = 1_000_000;

/** The largest budget a caller may configure; larger requests are refused as malformed-input (ADR 0033). */
export const MAX_WORK_BUDGET = 100_000_000;
