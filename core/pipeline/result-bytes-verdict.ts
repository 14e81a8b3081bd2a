/**
 * A result judged from its bytes, as a requester's own code holds it (docs/pipeline.md "Verifying a result";
 * docs/adr/0290-verifiable-result-notifications.md, 0291): a docket.result/2 notification that carries its entry,
 * or a saved `submit --wait --json` line. The checks are `submit --wait`'s (result-verdict.ts): the entry signed under
 * the key the trust policy pins, by an accepted build, and — when the request is given — recording exactly that
 * request. Bytes that read as neither are `result-unreadable` (saved-result.ts's reader).
 */
import type { ParsedEntry } from '../ledger/entries/entry.js';
import type { SignatureBackend } from '../ledger/primitives/signature.js';
import type { TrustPolicy } from '../ledger/trust-policy/trust-policy.js';
import { readSavedResult } from './saved-result.js';
import { sentRequestOf, verifyResultEntry, type ResultRejection } from './result-verdict.js';

export interface ResultBytesOptions {
  /** The request as sent: its id and exact bytes. Absent: the entry is judged alone, not as this request's result. */
  readonly request?: { readonly requestId: string; readonly bytes: Uint8Array };
  readonly backend?: SignatureBackend;
}

/** A verified result: the parsed signed entry and its exact text. */
export type VerifiedResult = ParsedEntry & { readonly body: string };

export type ResultBytesVerdict =
  | { readonly ok: true; readonly result: VerifiedResult }
  | { readonly ok: false; readonly reason: ResultRejection | 'result-unreadable'; readonly detail: string };

/** Judges a notification's or saved line's bytes. Pure; never throws for bad input. */
export function verifyResultBytes(
  bytes: Uint8Array,
  policy: TrustPolicy,
  options: ResultBytesOptions = {},
): ResultBytesVerdict {
  const saved = readSavedResult(bytes);
  if (!saved.ok) return { ok: false, reason: 'result-unreadable', detail: saved.error.detail };
  const { entry: body, parsed } = saved.value;
  const sent = options.request && sentRequestOf(options.request.requestId, options.request.bytes);
  const verdict = verifyResultEntry(parsed, sent, policy, options.backend);
  return verdict.ok ? { ok: true, result: { ...parsed, body } } : verdict;
}
