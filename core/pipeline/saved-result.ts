/**
 * A saved result: what a requester keeps of its answer, to audit later that the entry stayed in the log
 * (docs/verify.md "Saved results"; docs/adr/0291-saved-results-audited-against-checkpoints.md). Either a
 * docket.result/2 notification that carries its entry, or the line `docket submit --wait --json` printed for the
 * request. The line has one writer, `resultLine`, and this strict reader accepts it only when it is exactly the line
 * its own `entry` gives: every member beside the signed bytes is derived from them, so none can disagree.
 */
import canonicalize from 'canonicalize';
import { readJson } from '../carrier/read-json.js';
import { toPlain } from '../carrier/plain.js';
import { parseStoredEntry, type ParsedEntry } from '../ledger/entries/entry.js';
import { isRec } from '../ledger/primitives/shape.js';
import { err, ok, type Result } from '../result.js';
import { RESULT_FORMAT, readResultNotification } from './result-notification.js';

export interface SavedResultError {
  readonly code: 'result-unreadable';
  readonly detail: string;
}

/**
 * The one writer of a `submit --wait --json` line: like `docket evaluate`'s line ({"disposition"|"error", "work"}),
 * with the request id, the ledger coordinates and the signed entry's exact bytes (`entry`).
 */
export function resultLine(p: ParsedEntry, body: string): string {
  const n = p.entry;
  const ledger = canonicalize({ logId: n.logId, seq: n.seq, entryHash: p.entryHash }) as string;
  const head = `{"requestId":${JSON.stringify(n.requestId)},"ledger":${ledger},"kind":"${n.kind}"`;
  let result: string;
  if (n.kind === 'disposition') result = `"disposition":${canonicalize(n.disposition) as string}`;
  else if (n.kind === 'evaluation-error') result = `"error":${canonicalize(n.error) as string}`;
  // A graph run: the output contract object exactly as `docket graph evaluate` prints it (ADR 0360).
  else if (n.kind === 'graph-run') result = `"run":${n.run}`;
  else result = `"refusal":${canonicalize(n.refusal) as string}`;
  return `${head},${result},"work":${n.work},"entry":${JSON.stringify(body)}}`;
}

/** Decoded without Buffer, so the reader runs in a browser too (the BOM is kept, as Buffer kept it). */
const TEXT = new TextDecoder('utf-8', { ignoreBOM: true });

/** Reads a saved result (surrounding whitespace, such as the line's newline, is ignored): its entry, text and parsed. */
export function readSavedResult(
  bytes: Uint8Array,
): Result<{ readonly entry: string; readonly parsed: ParsedEntry }, SavedResultError> {
  const bad = (detail: string) => err<SavedResultError>({ code: 'result-unreadable', detail });
  const text = TEXT.decode(bytes).trim();
  const trimmed = new TextEncoder().encode(text);
  const read = readJson(trimmed);
  if (!read.ok) return bad(`not JSON: ${read.error.message}`);
  const plain = toPlain(read.value);
  if (!isRec(plain)) return bad('a saved result is a JSON object');
  if ('format' in plain) {
    const n = readResultNotification(trimmed);
    if (!n.ok) return bad(`${n.error.code}: ${n.error.message}`);
    if (n.value.entry === null)
      return bad(
        `a ${RESULT_FORMAT} notification without its entry (entryOmitted): save the submit --wait --json line`,
      );
    return ok({ entry: n.value.entry.body, parsed: n.value.entry });
  }
  if (typeof plain.entry !== 'string') return bad('neither a result notification nor a submit --wait --json line');
  const parsed = parseStoredEntry(plain.entry);
  if (!parsed.ok) return bad(`entry: ${parsed.error.code}: ${parsed.error.detail}`);
  if (resultLine(parsed.value, plain.entry) !== text)
    return bad('the line is not the one its entry gives: a member beside the signed entry was changed');
  return ok({ entry: plain.entry, parsed: parsed.value });
}
