/**
 * The refusal a request the reader refused becomes (docs/pipeline.md "What becomes of a message"): one mapping, used by the
 * pipeline when it records the refusal and by replay when it re-reads the retained bytes.
 */
import type { RefusalCode } from '../ledger/index.js';
import type { RequestErrorCode } from './request.js';

/** Exhaustive without a default: a new reader code that is not mapped here does not compile. */
export function refusalCodeOfRequestError(code: RequestErrorCode): RefusalCode {
  switch (code) {
    case 'request-too-large':
      return 'request-too-large';
    case 'request-format-unsupported':
      return 'unsupported-request-format';
    case 'request-not-json':
    case 'request-not-object':
    case 'request-id-invalid':
    case 'request-member-unknown':
    case 'request-pack-invalid':
    case 'request-graph-invalid':
    case 'request-facts-missing':
    case 'request-work-budget-invalid':
    case 'request-correlation-invalid':
      return 'request-malformed';
  }
}
