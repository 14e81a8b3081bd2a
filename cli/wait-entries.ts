/**
 * Polling the ledger for the entries of requests just sent, as the main job shows them (`npm start`, its graph demo).
 */
import { findPosition, parseStoredEntry } from '../core/ledger/index.js';
import type { StackClients } from '../stack/clients.js';

export type StoredRead = ReturnType<typeof parseStoredEntry>;

/** Each request's stored entry, read strictly once recorded; polls until every one is or `timeoutMs` has passed. */
export async function waitForEntries(
  stack: StackClients,
  ids: readonly string[],
  timeoutMs: number,
): Promise<Map<string, StoredRead>> {
  const until = Date.now() + timeoutMs;
  const done = new Map<string, StoredRead>();
  while (done.size < ids.length && Date.now() < until) {
    for (const id of ids) {
      const p = done.has(id) ? null : await findPosition(stack.store, id);
      if (p !== null)
        for await (const s of stack.store.readEntries(p.logId, p.seq, p.seq)) done.set(id, parseStoredEntry(s.body));
    }
    if (done.size < ids.length) await new Promise((r) => setTimeout(r, 250));
  }
  return done;
}
