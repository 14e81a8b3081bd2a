/**
 * Typed carrier refusals (Core §2.1, §3.1, §10). Every refusal names exactly one stable code; the message is for
 * people and is never compared. `offset` is a byte offset into the input where the refusal was decided. The codes,
 * in a fixed order, are one closed list the type derives from.
 */
export const CARRIER_ERROR_CODES = [
  /** Zero bytes, or only JSON whitespace: there is no JSON text at all (RFC 8259 §2 needs one value). */
  'empty-input',
  /** The bytes are not well-formed UTF-8 (RFC 8259 §8.1, RFC 3629): never repaired with U+FFFD. */
  'invalid-utf8',
  /** Not an RFC 8259 JSON text (includes a leading byte order mark, see docs/adr/0010-carrier-refuses-bom.md). */
  'syntax',
  /** A complete JSON value followed by anything but whitespace (§2.1: no silent prefix). */
  'trailing-data',
  /** Two members of one object share a name after unescaping (§2.1). */
  'duplicate-member',
  /** A \u escape in D800–DFFF that does not form a valid UTF-16 pair (§2.1). */
  'lone-surrogate',
  'limit-document-bytes',
  'limit-depth',
  'limit-string-bytes',
  'limit-number-bytes',
  'limit-collection-size',
] as const;
export type CarrierErrorCode = (typeof CARRIER_ERROR_CODES)[number];

export interface CarrierError {
  readonly code: CarrierErrorCode;
  readonly message: string;
  readonly offset?: number;
}
