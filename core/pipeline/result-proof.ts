/**
 * Proving a result notification received while waiting (docs/pipeline.md "Verifying a result"; ADR 0290, ADR 0173):
 * the notification read strictly, its entry — carried, or read at its coordinates when it was omitted, its bytes
 * hashing to the promised hash —, the request it records being one the waiter sent, and the entry verifying as that
 * request's result (result-verdict.ts). One home for `docket submit --wait` (cli/wait-results.ts) and
 * @docket/client's `results()` (adapters/docket-client.ts).
 */
import { entryHashOf, parseStoredEntry, type ParsedEntry } from '../ledger/entries/entry.js';
import type { LedgerStore } from '../ledger/store/store.js';
import type { TrustPolicy } from '../ledger/trust-policy/trust-policy.js';
import { readResultNotification, type ResultReadCode } from './result-notification.js';
import { verifyResultEntry, type ResultRejection, type SentRequest } from './result-verdict.js';

/** A proven result: the parsed signed entry and its exact text. */
export type ProvenEntry = ParsedEntry & { readonly body: string };

/** Why a received notification proves nothing; the verdict's reasons carry the request they were judged against. */
export type ResultProofRefusal =
  | { readonly reason: ResultReadCode | 'entry-hash-mismatch' | 'entry-not-found' | 'entry-not-awaited' }
  | { readonly reason: ResultRejection; readonly requestId: string };

export type ResultProof =
  | { readonly ok: true; readonly entry: ProvenEntry }
  | ({ readonly ok: false; readonly detail: string } & ResultProofRefusal);

/** Proves one notification body against the requests `sent` (by request id). Never throws for bad input. */
export async function proveResult(
  body: string,
  sent: ReadonlyMap<string, SentRequest>,
  policy: TrustPolicy,
  store: Pick<LedgerStore, 'readEntries'>,
): Promise<ResultProof> {
  const read = readResultNotification(new TextEncoder().encode(body));
  if (!read.ok) return { ok: false, reason: read.error.code, detail: read.error.message };
  const entry = read.value.entry ?? (await fetchEntry(read.value.ledger, store));
  if ('ok' in entry) return entry;
  const request = sent.get(entry.entry.requestId);
  if (request === undefined)
    return { ok: false, reason: 'entry-not-awaited', detail: `it records request ${entry.entry.requestId}` };
  const verdict = verifyResultEntry(entry, request, policy);
  if (!verdict.ok) return { ok: false, reason: verdict.reason, detail: verdict.detail, requestId: request.requestId };
  return { ok: true, entry };
}

/** An entry left out of its notification, read at its coordinates; its bytes must hash to the promised hash. */
async function fetchEntry(
  at: { logId: string; seq: number; entryHash: string },
  store: Pick<LedgerStore, 'readEntries'>,
): Promise<ProvenEntry | Extract<ResultProof, { ok: false }>> {
  for await (const e of store.readEntries(at.logId, at.seq, at.seq)) {
    if (e.seq !== at.seq) continue;
    if (entryHashOf(e.body) !== at.entryHash)
      return { ok: false, reason: 'entry-hash-mismatch', detail: `${at.logId}#${at.seq} is another entry` };
    const parsed = parseStoredEntry(e.body);
    return parsed.ok
      ? { ...parsed.value, body: e.body }
      : { ok: false, reason: 'entry-malformed', detail: parsed.error.code };
  }
  return { ok: false, reason: 'entry-not-found', detail: `no entry at ${at.logId}#${at.seq}` };
}
