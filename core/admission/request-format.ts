/**
 * The evaluation request message (schema/evaluation-request.schema.json), version 1. Every limit here is
 * documented in docs/pipeline.md and chosen in docs/adr/0070-request-format-and-exact-slices.md.
 */

/** The exact format selector a version-1 request carries. */
export const REQUEST_FORMAT = 'docket.evaluation-request/1';

/**
 * Request ids are the idempotency key and appear in DynamoDB keys, log lines and CLI arguments: printable ASCII
 * without spaces or separators that need quoting, 1–128 characters.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@+=-]{0,127}$/;

/** `sha256:` followed by 64 lowercase hex digits: the exact-pack reference. */
export const PACK_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
/** `id@version`: resolved to a digest at intake through the pack registry. Bounded like a request id. */
// Control characters are excluded from aliases on purpose: an alias is echoed into logs and entries.
// eslint-disable-next-line no-control-regex
export const PACK_ALIAS_PATTERN = /^[^@\s\u0000-\u001f]{1,128}@[^@\s\u0000-\u001f]{1,64}$/;

/**
 * Largest request, in bytes. The request archive keeps the exact request bytes in one DynamoDB item (400 KB,
 * attribute names and key included), so a request must fit in one with room for its keys; SQS (1 MiB) is
 * not the binding limit. 384 KiB leaves 16 KiB for the item's other attributes.
 */
export const MAX_REQUEST_BYTES = 393_216;

/** Correlation metadata: a flat object of string values, echoed in logs and handoff messages (never evaluated). */
export const MAX_CORRELATION_MEMBERS = 16;
export const MAX_CORRELATION_VALUE_BYTES = 256;
export const CORRELATION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The members a version-1 request may carry; anything else is refused (closed object). */
export const REQUEST_MEMBERS: readonly string[] = [
  'format',
  'requestId',
  'pack',
  'facts',
  'evidence',
  'workBudget',
  'correlation',
];
