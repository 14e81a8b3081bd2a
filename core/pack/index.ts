/** core/pack: pack document conformance — version dispatch (§11), carrier (§2.1), structural (§3.2, §4.1),
 *  semantic (§3.3) and the recommended rule-overlap lint (§3.3.1). */
export type {
  ConformanceClass,
  Diagnostic,
  PackValidation,
  Profile,
  SpecVersion,
  ValidatedPack,
  ValidatePackOptions,
} from './types.js';
export { validatePack } from './validate-pack.js';
export { SUPPORTED_SPEC_VERSIONS, SUPPORTED_PROFILES } from './spec-versions.js';
export { PackCodes } from './codes.js';
export { MAX_PACK_VALUES, countValues } from './validation-cost.js';
export type { PackCode } from './codes.js';
export { OVERLAP_EFFECT, DEFAULT_OVERLAP_BUDGET } from './overlap.js';
export { ROUTE_CEILINGS, publishedSchema } from './schemas.js';
export {
  DRAFT_FEATURES,
  JUDGMENT_GRAPHS,
  AGGREGATE_OPS,
  MAX_AGGREGATE_DEPTH,
  isDraftFeature,
  normalizeDraftFeatures,
  type DraftFeature,
} from './draft-features.js';
