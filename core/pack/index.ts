/** core/pack: pack document conformance — version dispatch (§11), carrier (§2.1), structural (§3.2, §4.1),
 *  semantic (§3.3) and the recommended rule-overlap lint (§3.3.1). */
export type { Diagnostic, PackValidation, ValidatedPack } from './types.js';
export { validatePack } from './validate-pack.js';
export { lazyValidators } from './schemas.js';
export {
  DRAFT_FEATURES,
  JUDGMENT_GRAPHS,
  isDraftFeature,
  normalizeDraftFeatures,
  type DraftFeature,
} from './draft-features.js';
