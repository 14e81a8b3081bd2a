/** core/carrier: the strict JSON carrier (Core §2.1), exact numbers (§7.4), decimal strings (§2.2), RFC 6901 pointers. */
export type { JsonValue, JsonNull, JsonBoolean, JsonNumber, JsonString, JsonArray, JsonObject } from './json-value.js';
export type { CarrierError, CarrierErrorCode } from './errors.js';
export { CARRIER_ERROR_CODES } from './errors.js';
export type { CarrierLimits } from './limits.js';
export {
  DEFAULT_CARRIER_LIMITS,
  MANDATED_MINIMUM_LIMITS,
  CARRIER_LIMIT_CEILINGS,
  CarrierLimitsError,
  resolveLimits,
  isWithinMandatedMinimum,
} from './limits.js';
export type { ReadJsonOptions } from './read-json.js';
export { readJson, documentTooLarge, JSON_NULL, JSON_TRUE, JSON_FALSE } from './read-json.js';
export { toPlain, fromPlain, NotJsonDataError } from './plain.js';
export type { ExactNumber } from './exact-number.js';
export {
  compareNumberLexemes,
  compareExactNumbers,
  parseNumberLexeme,
  isNumberLexeme,
  NotANumberLexemeError,
} from './exact-number.js';
export { isDecimalString, compareDecimalStrings, NotADecimalStringError } from './decimal-string.js';
export { jsonEquals } from './json-equals.js';
export type { PointerError, PointerErrorCode } from './pointer.js';
export { readPointer, resolvePointer } from './pointer.js';
export { utf8ByteLength, firstInvalidUtf8 } from './utf8.js';
export { MemberMap } from './member-map.js';
export { topLevelMemberSpans, type Span } from './member-spans.js';
