/**
 * Draft features: grammar a reader admits only when its caller names it explicitly (never by default, never from the
 * environment). RFC 0008's collection quantifiers: a pack using them keeps "specVersion": "0.3.0" and is refused
 * exactly as before by a reader that has not enabled the feature (docs/adr/0190-draft-feature-opt-in.md).
 * Judgment graphs (RFC 0002 / RFC 0022): a deployment accepts graph requests on its intake queue only when it enables
 * them, and refuses them `graphs-not-enabled` otherwise (docs/adr/0360-graph-runs-in-the-pipeline.md).
 */
export const DRAFT_FEATURES = ['judgment-graphs', 'rfc0008-quantifiers'] as const;
/** The opt-in for graph requests (ADR 0360). */
export const JUDGMENT_GRAPHS: DraftFeature = 'judgment-graphs';
export type DraftFeature = (typeof DRAFT_FEATURES)[number];

export const isDraftFeature = (s: string): s is DraftFeature => (DRAFT_FEATURES as readonly string[]).includes(s);

/** A sorted, duplicate-free list: the one canonical form features are compared and recorded in. */
export function normalizeDraftFeatures(
  features: ReadonlySet<DraftFeature> | readonly DraftFeature[] | undefined,
): readonly DraftFeature[] {
  if (features === undefined) return [];
  return Object.freeze([...new Set(features)].sort());
}
