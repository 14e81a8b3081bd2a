/** core/carrier: the strict JSON carrier (Core §2.1), exact numbers (§7.4), decimal strings (§2.2), RFC 6901 pointers. */
export type { JsonValue, JsonObject } from './json-value.js';
export type { CarrierError, CarrierErrorCode } from './errors.js';
export { type CarrierLimits, DEFAULT_CARRIER_LIMITS, resolveLimits } from './limits.js';
export { readJson, documentTooLarge } from './read-json.js';
export { toPlain, fromPlain } from './plain.js';
export { isDecimalString, compareDecimalStrings } from './decimal-string.js';
export { jsonEquals } from './json-equals.js';
export { escapeToken, pointerTokens, readPointer, resolvePointer } from './pointer.js';
export { utf8ByteLength } from './utf8.js';
export { topLevelMemberSpans } from './member-spans.js';
