/**
 * The handoff message, format docket.handoff/2 (schema/handoff-message.schema.json; docs/pipeline.md "Handoffs"): one
 * builder that checks every invariant before it emits RFC 8785 bytes, and one strict reader. Everything a consumer
 * acts on is read from the signed entry bytes it carries (ADR 0140); only the routing members sit outside them, and
 * the reader checks them against the signed disposition (Core §8.1) or, for a graph run (ADR 0361), the run's plan.
 * The handoff id derives from the entry hash and route index (ADR 0074), so a re-sent handoff keeps its id.
 */
import { readJson } from '../carrier/read-json.js';
import { toPlain } from '../carrier/plain.js';
import { err, ok, type Result } from '../result.js';
import type { Disposition, HandoffTarget } from '../evaluate/types.js';
import { entryHashOf, parseStoredEntry, type BuiltEntry, type ParsedEntry } from '../ledger/entries/entry.js';
import { sha256Hex, utf8Bytes } from '../ledger/primitives/bytes.js';
import { canonicalText, LedgerValueError, provenCanonicalValue } from '../ledger/primitives/canonical.js';
import { isRec } from '../ledger/primitives/shape.js';
import type { DispositionEntryBody, GraphRunEntryBody, SignedEntry } from '../ledger/entries/entry-types.js';
import { planGraphHandoffs } from './graph-handoffs.js';
import type { HandoffDestination, HandoffShape } from './handoff-plan.js';

export const HANDOFF_FORMAT = 'docket.handoff/2';
const HANDOFF_FORMAT_PREFIX = 'docket.handoff/';
/** The message's text as the reader compares it (no BOM stripping: the bytes are compared exactly). */
const STRICT_TEXT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes' text, or undefined when they are not UTF-8 (the strict carrier then says so). */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_TEXT.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * SQS's largest message (1 MiB, body and attributes). A stored entry is under DynamoDB's 400 KB item limit and JSON
 * string escaping at most doubles it, so every handoff fits (test/pipeline/handoff-message.test.ts checks the bound).
 */
export const HANDOFF_MAX_BYTES = 1_048_576;

/** The members of a docket.handoff/2 message on the wire: its routing, id and the entry's exact stored bytes. */
export interface HandoffWire extends HandoffRouting {
  readonly format: typeof HANDOFF_FORMAT;
  readonly handoffId: string;
  readonly entry: string;
}

export interface LedgerCoordinates {
  readonly logId: string;
  readonly seq: number;
  /** The entry hash (hex), recomputed from the carried bytes. */
  readonly entryHash: string;
}

/** A handoff as read: the wire routing members plus what is read from the signed entry bytes. */
export interface HandoffMessage {
  readonly format: typeof HANDOFF_FORMAT;
  readonly handoffId: string;
  readonly routeIndex: number;
  readonly shape: HandoffShape;
  readonly destination: HandoffDestination;
  readonly target?: HandoffTarget;
  /** Graph runs only: the originating instance path and the leaf's node id (ADR 0361). */
  readonly instancePath?: string;
  readonly node?: string;
  /** The parsed signed entry (its signature not yet checked: that needs the trust policy). */
  readonly entry: ParsedEntry & { readonly entry: SignedEntry & (DispositionEntryBody | GraphRunEntryBody) };
  readonly ledger: LedgerCoordinates;
  readonly requestId: string;
  /** The pack whose disposition requested the handoff (a graph run's: the originating leaf's, `packs[leaf.pack]`). */
  readonly packDigest: string;
  /** The disposition that requested it (a graph run's: the originating leaf's, from the signed run text). */
  readonly disposition: Disposition;
  readonly correlation?: Readonly<Record<string, string>>;
}

export class HandoffInvariantError extends Error {
  readonly code = 'handoff-invariant';
}

/** sha256:<hex> of "docket.handoff-id/1\n" + entryHash + "\n" + routeIndex (decimal). */
export function handoffId(entryHash: string, routeIndex: number): string {
  // The ledger's crypto port (ADR 0185), not node:crypto: the same bytes in a browser (docs/adr/0440-packages-built-from-the-repository-folders.md).
  return `sha256:${sha256Hex(`docket.handoff-id/1\n${entryHash}\n${routeIndex}`)}`;
}

/** What the reader refuses, in the order it checks (a subset of the verdict's reasons, handoff-verdict.ts). */
export type HandoffReadCode =
  | 'message-malformed'
  | 'unsupported-format'
  | 'entry-malformed'
  | 'not-a-handoff'
  | 'route-mismatch'
  | 'handoff-id-mismatch';

export interface HandoffReadError {
  readonly code: HandoffReadCode;
  readonly message: string;
}

/** The routing of one handoff of an entry (handoff-plan.ts decides it). */
export interface HandoffRouting {
  readonly routeIndex: number;
  readonly shape: HandoffShape;
  readonly destination: HandoffDestination;
  readonly target?: HandoffTarget;
  /** Graph runs only (ADR 0361, graph-handoffs.ts): the originating leaf's instance path and node id. */
  readonly instancePath?: string;
  readonly node?: string;
}

export interface HandoffDraft extends HandoffRouting {
  /** The entry's exact stored bytes. */
  readonly entryBody: string;
}

/** Builds the canonical bytes of one handoff message after checking every invariant (a failure here is a bug). */
export function handoffMessageBytes(d: HandoffDraft): { id: string; body: string } {
  const parsed = parseStoredEntry(d.entryBody);
  if (!parsed.ok) throw new HandoffInvariantError(`entry: ${parsed.error.code}: ${parsed.error.detail}`);
  return handoffMessagesFor({ ...parsed.value, body: d.entryBody }, [d])[0]!;
}

/** An entry as the ledger writer records it: read strictly or built and checked by the entry builder. */
export type CheckedEntry = BuiltEntry;

/**
 * Builds the messages of every handoff of one recorded entry. The ledger writer built the entry from, or read it
 * strictly out of, exactly these bytes (ledger-writer.ts), so it is not parsed again per message; the entry hash is
 * recomputed so the embedded bytes and the id agree. Each message's routing (against `recorded.entry`), id and size
 * are checked before its RFC 8785 bytes are emitted. Throws HandoffInvariantError (a caller bug).
 */
export function handoffMessagesFor(
  recorded: CheckedEntry,
  routings: readonly HandoffRouting[],
): { id: string; body: string }[] {
  if (entryHashOf(recorded.body) !== recorded.entryHash)
    throw new HandoffInvariantError('the entry hash is not the hash of the entry bytes');
  return routings.map((r) => {
    const id = handoffId(recorded.entryHash, r.routeIndex);
    const wire: HandoffWire = {
      format: HANDOFF_FORMAT,
      handoffId: id,
      entry: recorded.body,
      routeIndex: r.routeIndex,
      shape: r.shape,
      destination: r.destination,
      ...(r.target !== undefined ? { target: { kind: r.target.kind, name: r.target.name } } : {}),
      ...(r.instancePath !== undefined ? { instancePath: r.instancePath } : {}),
      ...(r.node !== undefined ? { node: r.node } : {}),
    };
    const problem = checkRouting(wire, recorded);
    if (problem !== undefined) throw new HandoffInvariantError(`${problem.code}: ${problem.message}`);
    const body = wireText(wire);
    if (body === undefined)
      throw new HandoffInvariantError('a member has no RFC 8785 form (a lone surrogate or an unsafe number)');
    if (Buffer.byteLength(body, 'utf8') > HANDOFF_MAX_BYTES)
      throw new HandoffInvariantError(`the message exceeds ${HANDOFF_MAX_BYTES} bytes`);
    return { id, body };
  });
}

const WIRE_MEMBERS = new Set([
  'format',
  'handoffId',
  'entry',
  'routeIndex',
  'shape',
  'destination',
  'target',
  'instancePath',
  'node',
]);
const SHAPES: readonly string[] = ['route', 'target', 'no-destination'];
const DESTINATIONS: readonly string[] = ['configured', 'unmapped-target', 'no-destination'];
const TARGET_KINDS: readonly string[] = ['human-role', 'queue', 'system'];
const fail = (code: HandoffReadCode, message: string): Result<never, HandoffReadError> => err({ code, message });

/** Reads a handoff message strictly: carrier, format, members, canonical bytes, the entry, routing, the id. */
export function readHandoffMessage(bytes: Uint8Array): Result<HandoffMessage, HandoffReadError> {
  // Bytes the ledger's checked fast path proves canonical (docs/adr/0093-verify-performance.md) are read once, by
  // JSON.parse, and need no second canonical check; all others take the strict carrier, so every refusal is the one
  // (and in the order) the strict reader gives.
  const text = utf8Text(bytes);
  const proven = text === undefined ? undefined : provenCanonicalValue(text);
  if (proven !== undefined) return readMembers(proven.value, undefined);
  const r = readJson(bytes);
  if (!r.ok) return fail('message-malformed', `not JSON: ${r.error.message}`);
  // The carrier read the bytes, so they are UTF-8 and `text` is theirs.
  return readMembers(toPlain(r.value), text as string);
}

/**
 * readHandoffMessage of the UTF-8 bytes of `text` — a message as an SQS body carries it — without encoding and
 * decoding it when the checked fast path proves it canonical (docs/adr/0494-handoff-consumer-reads-the-body-text.md).
 * A text the fast path proves holds no lone surrogate, so its UTF-8 bytes decode back to it exactly; every other text
 * is read from its bytes (a lone surrogate encoded as U+FFFD, as TextEncoder writes it), as before.
 */
export function readHandoffText(text: string): Result<HandoffMessage, HandoffReadError> {
  const proven = provenCanonicalValue(text);
  return proven !== undefined ? readMembers(proven.value, undefined) : readHandoffMessage(utf8Bytes(text));
}

/**
 * The message's members after its carrier read: `text` is the message's text when its canonical form is still to be
 * checked, undefined when the fast path proved it.
 */
function readMembers(plain: unknown, text: string | undefined): Result<HandoffMessage, HandoffReadError> {
  if (!isRec(plain)) return fail('message-malformed', 'a handoff message is a JSON object');
  if (plain.format !== HANDOFF_FORMAT) {
    if (typeof plain.format === 'string' && plain.format.startsWith(HANDOFF_FORMAT_PREFIX))
      return fail(
        'unsupported-format',
        `format ${plain.format} is not ${HANDOFF_FORMAT}` +
          (plain.format === 'docket.handoff/1' ? ': it carries no signed entry, so it cannot be verified' : ''),
      );
    return fail('message-malformed', `format must be ${HANDOFF_FORMAT}`);
  }
  const shapeProblem = wireShapeProblem(plain);
  if (shapeProblem !== undefined) return fail('message-malformed', shapeProblem);
  const wire = plain as unknown as HandoffWire;
  if (text !== undefined && wireText(wire) !== text)
    return fail('message-malformed', 'the message bytes are not the RFC 8785 form of what they parse to');
  const parsed = parseStoredEntry(wire.entry);
  if (!parsed.ok) return fail('entry-malformed', `${parsed.error.code}: ${parsed.error.detail}`);
  const problem = checkRouting(wire, parsed.value);
  if (problem !== undefined) return err(problem);
  const e = parsed.value.entry as SignedEntry & (DispositionEntryBody | GraphRunEntryBody);
  // A graph run's: the originating leaf's disposition and pack (checkRouting found the message's route in the plan).
  const leaf =
    e.kind === 'graph-run'
      ? planGraphHandoffs(e, NO_QUEUES).find((h) => h.routeIndex === wire.routeIndex)?.leaf
      : undefined;
  const disposition = e.kind === 'graph-run' ? leaf!.disposition : e.disposition;
  const packDigest = e.kind === 'graph-run' ? leaf!.packDigest : (e.pack?.digest ?? '');
  return ok({
    format: HANDOFF_FORMAT,
    handoffId: wire.handoffId,
    routeIndex: wire.routeIndex,
    shape: wire.shape,
    destination: wire.destination,
    ...(wire.target !== undefined ? { target: wire.target } : {}),
    ...(wire.instancePath !== undefined ? { instancePath: wire.instancePath } : {}),
    ...(wire.node !== undefined ? { node: wire.node } : {}),
    entry: { ...parsed.value, entry: e },
    ledger: { logId: e.logId, seq: e.seq, entryHash: parsed.value.entryHash },
    requestId: e.requestId,
    packDigest,
    disposition,
    ...(e.correlation !== null ? { correlation: e.correlation } : {}),
  });
}

/**
 * The RFC 8785 text of a message's members (the one serializer of this record, for the builder and the reader's
 * canonical check): the ledger's canonical serializer, which is RFC 8785 for values whose member names are ASCII and
 * whose numbers are safe integers (docs/adr/0055-ledger-canonical-serializer.md) — every wire member name is, and
 * routeIndex is checked to be one. Undefined when a value has no such form (a lone surrogate, an unsafe number).
 */
function wireText(wire: HandoffWire): string | undefined {
  try {
    return canonicalText(wire);
  } catch (e) {
    if (e instanceof LedgerValueError) return undefined;
    throw e;
  }
}

function wireShapeProblem(m: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(m)) if (!WIRE_MEMBERS.has(k)) return `unknown member ${k}`;
  if (typeof m.handoffId !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(m.handoffId))
    return 'handoffId is "sha256:" + 64 lowercase hex digits';
  if (typeof m.entry !== 'string' || m.entry === '') return 'entry is the entry text (a non-empty string)';
  if (typeof m.routeIndex !== 'number' || !Number.isSafeInteger(m.routeIndex) || m.routeIndex < 0)
    return 'routeIndex is a non-negative integer';
  if (typeof m.shape !== 'string' || !SHAPES.includes(m.shape)) return `shape is one of ${SHAPES.join(', ')}`;
  if (typeof m.destination !== 'string' || !DESTINATIONS.includes(m.destination))
    return `destination is one of ${DESTINATIONS.join(', ')}`;
  if (m.target !== undefined) {
    const t = m.target;
    if (!isRec(t) || Object.keys(t).sort().join(',') !== 'kind,name') return 'target has exactly kind and name';
    if (typeof t.kind !== 'string' || !TARGET_KINDS.includes(t.kind)) return 'target.kind is a Core target kind';
    if (typeof t.name !== 'string' || t.name === '') return 'target.name is a non-empty string';
  }
  if (m.instancePath !== undefined && (typeof m.instancePath !== 'string' || m.instancePath === ''))
    return 'instancePath is a non-empty string';
  if (m.node !== undefined && (typeof m.node !== 'string' || m.node === '')) return 'node is a non-empty string';
  return undefined;
}

/** Planning without a route configuration: routing, targets and indexes; destinations are configuration. */
const NO_QUEUES = { routeQueues: {}, unroutedQueue: '' };

/**
 * A graph run's message against the run's own plan (graph-handoffs.ts): the route index names a planned handoff,
 * and its shape, target, instance path and node are that handoff's. `destination` configured vs unmapped-target is
 * deployment configuration; a handoff without destination is exactly the no-destination one.
 */
function checkGraphRouting(m: HandoffWire, e: SignedEntry & GraphRunEntryBody): HandoffReadError | undefined {
  const mismatch = (message: string): HandoffReadError => ({ code: 'route-mismatch', message });
  const plan = planGraphHandoffs(e, NO_QUEUES);
  if (plan.length === 0)
    return { code: 'not-a-handoff', message: `entry ${e.logId}#${e.seq} records no requested handoff` };
  const p = plan.find((h) => h.routeIndex === m.routeIndex);
  if (p === undefined) return mismatch(`routeIndex ${m.routeIndex} selects no handoff of the graph run`);
  if (m.instancePath !== p.instancePath || m.node !== p.node)
    return mismatch(`routeIndex ${m.routeIndex} is the handoff of ${p.instancePath} (node ${p.node})`);
  if (m.shape !== p.shape) return mismatch(`routeIndex ${m.routeIndex} is a ${p.shape} handoff`);
  const same =
    p.target === undefined
      ? m.target === undefined
      : m.target?.kind === p.target.kind && m.target.name === p.target.name;
  if (!same) return mismatch(`routeIndex ${m.routeIndex} names another target than the run's`);
  if ((m.destination === 'no-destination') !== (p.shape === 'no-destination'))
    return mismatch('a handoff has no destination exactly when the run requested one without a target');
  return undefined;
}

/**
 * The routing members against the signed disposition (Core §8.1 selected routes, §8.3 target), then the id.
 * `destination` configured vs unmapped-target is deployment configuration the entry cannot attest.
 */
function checkRouting(
  m: HandoffWire,
  parsed: { readonly entry: SignedEntry; readonly entryHash: string },
): HandoffReadError | undefined {
  const e = parsed.entry;
  if (e.kind === 'graph-run') {
    const problem = checkGraphRouting(m, e);
    if (problem !== undefined) return problem;
    if (m.handoffId !== handoffId(parsed.entryHash, m.routeIndex))
      return { code: 'handoff-id-mismatch', message: 'handoffId does not derive from the entry hash and route index' };
    return undefined;
  }
  if (m.instancePath !== undefined || m.node !== undefined)
    return { code: 'route-mismatch', message: 'only a graph run’s handoff names an instance path and node' };
  if (e.kind !== 'disposition' || e.disposition.handoff.state !== 'requested')
    return { code: 'not-a-handoff', message: `entry ${e.logId}#${e.seq} records no requested handoff` };
  const h = e.disposition.handoff;
  const mismatch = (message: string): HandoffReadError => ({ code: 'route-mismatch', message });
  if (m.shape === 'route') {
    // §8.1: routes are the selected routes in declaration order; routeIndex is a position in that array.
    const t = h.routes?.[m.routeIndex];
    if (t === undefined) return mismatch(`routeIndex ${m.routeIndex} selects no route of the disposition`);
    if (m.target === undefined || t.kind !== m.target.kind || t.name !== m.target.name)
      return mismatch(`routeIndex ${m.routeIndex} selects ${t.kind}:${t.name}, not the message's target`);
    if (m.destination === 'no-destination') return mismatch('a routed handoff has a destination');
  } else {
    if (h.routes !== undefined) return mismatch(`the disposition selects routes, so the shape is route`);
    if (m.routeIndex !== 0) return mismatch('a target or destinationless handoff has routeIndex 0');
    if (m.shape === 'target') {
      if (m.target === undefined) return mismatch('a targeted handoff names its target');
      if (m.destination === 'no-destination') return mismatch('a targeted handoff has a destination');
    } else {
      if (m.target !== undefined || m.destination !== 'no-destination')
        return mismatch('a destinationless handoff names no target and has destination no-destination');
      // §8.1: without an escalation object only a direct exception escalation requests a handoff.
      if (!(h.triggeredBy ?? []).includes('exception-escalation'))
        return mismatch('a destinationless handoff comes from a direct exception escalation');
    }
  }
  if (m.handoffId !== handoffId(parsed.entryHash, m.routeIndex))
    return { code: 'handoff-id-mismatch', message: 'handoffId does not derive from the entry hash and route index' };
  return undefined;
}
