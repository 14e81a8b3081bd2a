/**
 * The carrier's documented resource limits (Core §2.1, §3.1, §10). Each limit is refused explicitly with its own
 * error code, never by processing a prefix. The defaults are at least RFC 0008's "Portability: the mandated minimum
 * domain" (2 MiB per document, a 1,048,576-byte string, a 4,096-byte number token, 32 levels of nesting, 10,000
 * elements), so no in-domain corpus input is refused by the carrier. Rationale: docs/adr/0011-carrier-default-limits.md.
 * docs/limits.md (owned by the evaluator) restates these constants; these doc comments are the source.
 */
export interface CarrierLimits {
  /**
   * Maximum size of the whole input, in bytes, counted before any decoding (whitespace and all).
   * Exceeding it: `limit-document-bytes`, decided before a single byte is read.
   */
  readonly documentBytes: number;
  /**
   * Maximum container nesting: the number of arrays/objects open at once. A scalar root has depth 0, `[]` has
   * depth 1, `[[]]` depth 2. Exceeding it: `limit-depth`.
   */
  readonly depth: number;
  /**
   * Maximum UTF-8 byte length of one string's decoded value (member names included; quotes excluded; an escape
   * counts as the bytes of the character it denotes). Exceeding it: `limit-string-bytes`.
   */
  readonly stringBytes: number;
  /** Maximum byte length of one number lexeme as written (sign, digits, point, exponent). Exceeding it: `limit-number-bytes`. */
  readonly numberBytes: number;
  /** Maximum element count of one array and member count of one object. Exceeding it: `limit-collection-size`. */
  readonly collectionSize: number;
}

/**
 * Default limits.
 * - documentBytes 2,097,152 (2 MiB): RFC 0008's minimum; twice the largest SQS message, so any facts document a
 *   request can carry fits.
 * - depth 64: twice RFC 0008's minimum of 32, because each level of all/any/not in a pack costs two containers
 *   (the condition object and its `conditions` array), so 32 would cap authored logic at about 14 levels.
 * - stringBytes 1,048,576 (1 MiB): RFC 0008's minimum (its megabyte-pointer row).
 * - numberBytes 4,096: RFC 0008's minimum.
 * - collectionSize 10,000: RFC 0008's minimum; a larger array could not be traversed under the default work
 *   budget anyway (each element costs at least 3 units of V).
 */
export const DEFAULT_CARRIER_LIMITS: CarrierLimits = Object.freeze({
  documentBytes: 2_097_152,
  depth: 64,
  stringBytes: 1_048_576,
  numberBytes: 4_096,
  collectionSize: 10_000,
});

/**
 * Hard ceilings on configured limits. The depth ceiling keeps every recursive helper (reader, toPlain, jsonEquals)
 * far from the JavaScript stack limit, so no configuration can turn deep input into a crash; the byte ceiling
 * stays under V8's maximum string length.
 */
export const CARRIER_LIMIT_CEILINGS: CarrierLimits = Object.freeze({
  documentBytes: 268_435_456,
  depth: 1_024,
  stringBytes: 268_435_456,
  numberBytes: 268_435_456,
  collectionSize: 268_435_456,
});

/** A configuration mistake (not bad input): thrown, because it is a bug in the caller, not a document to refuse. */
export class CarrierLimitsError extends RangeError {
  readonly code = 'carrier-limits-invalid';
}

/**
 * Merges overrides onto the defaults. Each value must be a positive safe integer no larger than its ceiling.
 * Values below RFC 0008's minimum are allowed (tests and tight deployments need them) but such a configuration
 * is outside the portable domain.
 */
export function resolveLimits(overrides?: Partial<CarrierLimits>): CarrierLimits {
  if (overrides === undefined) return DEFAULT_CARRIER_LIMITS;
  const out = { ...DEFAULT_CARRIER_LIMITS };
  for (const name of Object.keys(DEFAULT_CARRIER_LIMITS) as (keyof CarrierLimits)[]) {
    const value = overrides[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1 || value > CARRIER_LIMIT_CEILINGS[name]) {
      throw new CarrierLimitsError(
        `carrier limit ${name} must be an integer in 1..${CARRIER_LIMIT_CEILINGS[name]}, got ${String(value)}`,
      );
    }
    out[name] = value;
  }
  return Object.freeze(out);
}
