/**
 * The handoff ids a consumer has printed, per route queue, kept between runs (docs/pipeline.md "Verifying a
 * handoff"; docs/adr/0460-handoff-ids-remembered-between-consumer-runs.md): format `docket.handoffs-seen/1`, one
 * object `{format, queues: {<queue name>: [<handoff id>, …]}}`, each list oldest first and at most MAX_REMEMBERED long
 * (the newest are kept). Read strictly: a file that is not this shape is an error, never a silently empty memory.
 */
import { err, ok, type Result } from '../result.js';

export const HANDOFFS_SEEN_FORMAT = 'docket.handoffs-seen/1';
/** Ids kept per queue: 10,000 ids is about 0.7 MB of file; an id older than that prints again. */
export const MAX_REMEMBERED = 10_000;

export type HandoffsSeen = Readonly<Record<string, readonly string[]>>;

export interface HandoffsSeenError {
  readonly code: 'handoffs-seen-unreadable';
  readonly detail: string;
}

const HANDOFF_ID = /^sha256:[0-9a-f]{64}$/;

export function readHandoffsSeen(bytes: Uint8Array): Result<HandoffsSeen, HandoffsSeenError> {
  const bad = (detail: string) => err({ code: 'handoffs-seen-unreadable' as const, detail });
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    return bad(`not UTF-8 JSON: ${(e as Error).message}`);
  }
  const o = doc as { format?: unknown; queues?: unknown } | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o) || Object.keys(o).sort().join() !== 'format,queues')
    return bad('not an object with exactly the members format and queues');
  if (o.format !== HANDOFFS_SEEN_FORMAT) return bad(`format is not ${HANDOFFS_SEEN_FORMAT}`);
  if (typeof o.queues !== 'object' || o.queues === null || Array.isArray(o.queues))
    return bad('queues is not an object');
  const queues: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;
  for (const [queue, ids] of Object.entries(o.queues)) {
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && HANDOFF_ID.test(id)))
      return bad(`queue ${JSON.stringify(queue)} is not a list of handoff ids`);
    queues[queue] = ids as string[];
  }
  return ok(queues);
}

/** `seen` with `queue`'s list replaced by the newest MAX_REMEMBERED of `ids`, as the file's text. */
export function serializeHandoffsSeen(seen: HandoffsSeen, queue: string, ids: readonly string[]): string {
  const queues = { ...seen, [queue]: ids.slice(-MAX_REMEMBERED) };
  const sorted = Object.fromEntries(Object.entries(queues).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${JSON.stringify({ format: HANDOFFS_SEEN_FORMAT, queues: sorted })}\n`;
}
