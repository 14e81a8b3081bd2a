/**
 * The handoff message (schema/handoff-message.schema.json): what a route consumer receives. One builder that checks
 * the message's invariants before it emits RFC 8785 bytes, and one strict reader.
 *
 * The handoff id is deterministic — SHA-256 over a domain prefix, the entry hash and the route index
 * (docs/adr/0074-handoff-id-and-at-least-once-delivery.md) — so a re-sent handoff (redelivery after a crash between
 * the ledger write and the send) carries the same id and consumers deduplicate on it.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { readJson } from '../carrier/read-json.js';
import { toPlain } from '../carrier/plain.js';
import { err, ok, type Result } from '../result.js';
import type { Disposition, HandoffTarget } from '../evaluate/types.js';
import type { HandoffDestination, HandoffShape } from './handoff-plan.js';

export const HANDOFF_FORMAT = 'docket.handoff/1';

export interface LedgerCoordinates {
  readonly logId: string;
  readonly seq: number;
  /** The entry hash as the ledger writes it (e.g. "sha256:<hex>"). */
  readonly entryHash: string;
}

export interface HandoffMessage {
  readonly format: typeof HANDOFF_FORMAT;
  readonly handoffId: string;
  readonly ledger: LedgerCoordinates;
  readonly requestId: string;
  readonly packDigest: string;
  readonly routeIndex: number;
  readonly shape: HandoffShape;
  readonly destination: HandoffDestination;
  readonly target?: HandoffTarget;
  readonly disposition: Disposition;
  readonly correlation?: Readonly<Record<string, string>>;
}

export class HandoffInvariantError extends Error {
  readonly code = 'handoff-invariant';
}

/** sha256:<hex> of "docket.handoff-id/1\n" + entryHash + "\n" + routeIndex (decimal). */
export function handoffId(entryHash: string, routeIndex: number): string {
  const h = createHash('sha256').update(`docket.handoff-id/1\n${entryHash}\n${routeIndex}`, 'utf8').digest('hex');
  return `sha256:${h}`;
}

/** Builds the canonical bytes of a handoff message after checking every invariant (a failure here is a bug). */
export function handoffMessageBytes(m: Omit<HandoffMessage, 'format' | 'handoffId'>): { id: string; body: string } {
  const id = handoffId(m.ledger.entryHash, m.routeIndex);
  const msg: HandoffMessage = { format: HANDOFF_FORMAT, handoffId: id, ...m };
  const problem = checkHandoff(msg);
  if (problem !== undefined) throw new HandoffInvariantError(problem);
  return { id, body: canonicalize(msg) as string };
}

function checkHandoff(m: HandoffMessage): string | undefined {
  if (!Number.isSafeInteger(m.ledger.seq) || m.ledger.seq < 0) return 'ledger.seq must be a non-negative integer';
  if (!Number.isSafeInteger(m.routeIndex) || m.routeIndex < 0) return 'routeIndex must be a non-negative integer';
  if (m.disposition.handoff.state !== 'requested') return 'a handoff is only sent for a requested handoff';
  if (m.shape === 'no-destination' && (m.target !== undefined || m.destination !== 'no-destination'))
    return 'a destinationless handoff names no target';
  if (m.shape !== 'no-destination' && m.target === undefined) return 'a routed or targeted handoff names its target';
  if (m.shape === 'route') {
    const routes = m.disposition.handoff.routes;
    const t = routes?.[m.routeIndex];
    if (t === undefined || t.kind !== m.target?.kind || t.name !== m.target.name)
      return 'routeIndex must select the target in disposition.handoff.routes';
  } else if (m.routeIndex !== 0) return 'a target or destinationless handoff has routeIndex 0';
  if (m.handoffId !== handoffId(m.ledger.entryHash, m.routeIndex))
    return 'handoffId does not derive from the entry hash and route index';
  return undefined;
}

export type HandoffReadError = {
  readonly code: 'handoff-not-json' | 'handoff-shape' | 'handoff-not-canonical';
  readonly message: string;
};

/** Reads a handoff message strictly: carrier, shape, invariants, and canonical bytes. */
export function readHandoffMessage(bytes: Uint8Array): Result<HandoffMessage, HandoffReadError> {
  const r = readJson(bytes);
  if (!r.ok) return err({ code: 'handoff-not-json', message: r.error.message });
  const plain = toPlain(r.value) as Record<string, unknown>;
  if (typeof plain !== 'object' || plain === null || plain.format !== HANDOFF_FORMAT)
    return err({ code: 'handoff-shape', message: `format must be ${HANDOFF_FORMAT}` });
  const allowed = new Set([
    'format',
    'handoffId',
    'ledger',
    'requestId',
    'packDigest',
    'routeIndex',
    'shape',
    'destination',
    'target',
    'disposition',
    'correlation',
  ]);
  for (const k of Object.keys(plain))
    if (!allowed.has(k)) return err({ code: 'handoff-shape', message: `unknown member ${k}` });
  const m = plain as unknown as HandoffMessage;
  if (
    typeof m.handoffId !== 'string' ||
    typeof m.requestId !== 'string' ||
    typeof m.packDigest !== 'string' ||
    typeof m.ledger !== 'object' ||
    m.ledger === null ||
    typeof m.ledger.entryHash !== 'string' ||
    typeof m.ledger.logId !== 'string' ||
    typeof m.disposition !== 'object' ||
    m.disposition === null
  ) {
    return err({ code: 'handoff-shape', message: 'missing or mistyped members' });
  }
  const problem = checkHandoff(m);
  if (problem !== undefined) return err({ code: 'handoff-shape', message: problem });
  if (canonicalize(m) !== new TextDecoder().decode(bytes))
    return err({
      code: 'handoff-not-canonical',
      message: 'the message bytes are not the RFC 8785 form of what they parse to',
    });
  return ok(m);
}
