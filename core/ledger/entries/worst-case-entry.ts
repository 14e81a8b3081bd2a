/**
 * Admission before evaluation ("reserve the terminal report"): refuse a request whose entry might not fit one
 * DynamoDB item, before any evaluation runs, so evaluation never produces a result the ledger cannot hold.
 * The arithmetic is in docs/ledger-format.md ("Worst-case entry size"); docs/adr/0054-admission-worst-case-entry.md.
 *
 * The worst case is not estimated: it is the exact RFC 8785 length of an entry built from upper bounds of every
 * member — the request's own id and correlation, the deployment's log ids, extensions and evaluator identity, and
 * a disposition that is a superset of any the pack can produce (the longest outcome id, every reason, a requested
 * handoff triggered by every reason and naming every declared route) — maximised over the three entry kinds.
 */
import { err, ok, type Result } from '../../result.js';
import type { HandoffTarget } from '../../evaluate/types.js';
import { canonicalText } from '../primitives/canonical.js';
import { entryViolation } from './entry-rules.js';
import {
  ENTRY_FORMAT_V3,
  ENTRY_LIMITS,
  entryFormatFor,
  type EvaluatorRef,
  type GraphRunEntryBody,
} from './entry-types.js';

export interface PackWorstCase {
  readonly id: string;
  readonly version: string;
  readonly specVersion: string;
  /** Every declared outcome id. */
  readonly outcomeIds: readonly string[];
  /** The declared escalation routes' targets in declaration order (empty or omitted when the pack has none). */
  readonly routeTargets?: readonly HandoffTarget[];
}

export interface AdmissionInput {
  readonly requestId: string;
  readonly correlation: Readonly<Record<string, string>> | null;
  readonly pack: PackWorstCase;
  /** The configured log ids (the request may land on any). */
  readonly logIds: readonly string[];
  readonly supportedExtensions: readonly string[];
  readonly evaluator: EvaluatorRef;
  /** The deployment's enabled draft features (sorted, unique); absent or empty: a version 1 entry (ADR 0220). */
  readonly draftFeatures?: readonly string[];
}

/**
 * itemBytes is DynamoDB's item limit (400 KB, attribute names and values included); itemOverheadBytes budgets
 * everything in the item besides the body = 8 attribute names × 32 bytes (256) + partition key "log#" + logId (≤ 68)
 * + sort key number (≤ 21) + projection requestId (≤ 256) + kind (≤ 17) + entryHash (64) = 682, rounded up to 2,048
 * to leave room for an adapter's extra attributes (e.g. a GSI key). An adapter that stores more must raise this.
 */
export const DEFAULT_ADMISSION_LIMITS: { readonly itemBytes: number; readonly itemOverheadBytes: number } =
  Object.freeze({ itemBytes: 409_600, itemOverheadBytes: 2_048 });
/** The most bytes of entry body one ledger item holds. */
const LIMIT_BYTES = DEFAULT_ADMISSION_LIMITS.itemBytes - DEFAULT_ADMISSION_LIMITS.itemOverheadBytes;

const MAX_INT = Number.MAX_SAFE_INTEGER; // 16 digits: seq, workBudget and work are at most this
const HASH = 'f'.repeat(64);
const LONGEST_TIME = '2026-12-31T23:59:59.999999999Z';
const ALL_REASONS = [
  'conflict',
  'exception-escalation',
  'missing-required-evidence',
  'no-match',
  'not-applicable',
  'unknown',
];
/** A message at the byte cap whose every byte escapes to six (\u0001): the longest JSON any capped message takes. */
const worstMessage = (capBytes: number): string => '\u0001'.repeat(capBytes);

const longest = (xs: readonly string[]): string => xs.reduce((a, b) => (jsonBytes(b) > jsonBytes(a) ? b : a), '');
const jsonBytes = (s: string): number => Buffer.byteLength(JSON.stringify(s), 'utf8');

/** Upper bound (bytes) of the stored body of the request's entry, whatever the evaluation produces. */
export function worstCaseEntryBytes(input: AdmissionInput): number {
  const routes = input.pack.routeTargets ?? [];
  const draft = input.draftFeatures ?? [];
  const common = {
    format: entryFormatFor(draft),
    ...(draft.length > 0 ? { draftFeatures: [...draft] } : {}),
    logId: longest(input.logIds),
    seq: MAX_INT,
    prevHash: HASH,
    requestId: input.requestId,
    requestDigest: HASH,
    correlation: input.correlation,
    pack: { id: input.pack.id, version: input.pack.version, digest: HASH },
    specVersion: input.pack.specVersion,
    factsDigest: HASH,
    evidenceDigest: HASH,
    supportedExtensions: [...input.supportedExtensions],
    workBudget: MAX_INT,
    work: MAX_INT,
    evaluator: { ...input.evaluator },
    time: LONGEST_TIME,
    keyId: `ed25519:${'f'.repeat(32)}`,
    signature: 'f'.repeat(128),
  };
  const superDisposition = {
    kind: 'not-applicable',
    outcomeId: longest(input.pack.outcomeIds),
    reasons: ALL_REASONS,
    handoff: {
      state: 'requested',
      triggeredBy: ALL_REASONS,
      routes: routes.map((t) => ({ kind: t.kind, name: t.name })),
    },
  };
  const candidates = [
    { ...common, kind: 'disposition', disposition: superDisposition, dispositionDigest: HASH },
    {
      ...common,
      kind: 'evaluation-error',
      error: {
        class: 'unsupported-required-extension',
        phase: 'evaluation',
        code: 'x'.repeat(ENTRY_LIMITS.errorCodeBytes),
        message: worstMessage(ENTRY_LIMITS.errorMessageBytes),
      },
    },
    {
      ...common,
      kind: 'admission-refusal',
      refusal: { code: 'unsupported-request-format', message: worstMessage(ENTRY_LIMITS.refusalMessageBytes) },
    },
  ];
  return Math.max(...candidates.map((c) => Buffer.byteLength(canonicalText(c), 'utf8')));
}

export interface AdmissionRefusal {
  readonly code: 'entry-would-not-fit';
  readonly message: string;
  readonly worstCaseEntryBytes: number;
  readonly limitBytes: number;
}

/** Admits the request when its worst-case entry plus the item overhead fits one DynamoDB item. */
export function checkEntryFits(
  input: AdmissionInput,
): Result<{ readonly worstCaseEntryBytes: number; readonly limitBytes: number }, AdmissionRefusal> {
  const bytes = worstCaseEntryBytes(input);
  const limitBytes = LIMIT_BYTES;
  if (bytes > limitBytes) {
    return err({
      code: 'entry-would-not-fit',
      message: `the entry for this request could take ${bytes} bytes; a ledger item holds at most ${limitBytes} bytes of entry`,
      worstCaseEntryBytes: bytes,
      limitBytes,
    });
  }
  return ok({ worstCaseEntryBytes: bytes, limitBytes });
}

/** A graph run's entry before its slot, time and key are known (the run is already decided, ADR 0360). */
export type GraphRunEntryDraft = Omit<GraphRunEntryBody, 'format' | 'logId' | 'seq' | 'prevHash' | 'time' | 'keyId'>;

/**
 * A graph run's entry is judged after the run, not before it (ADR 0360: no worst case of a graph's answer is tighter
 * than the item itself): the exact entry with the largest slot, time and key any log gives it must fit one ledger item
 * and hold every invariant of its format, or the request is refused `entry-would-not-fit` and nothing is lost. The
 * same inputs give the same verdict, so replay re-judges it.
 */
export function checkGraphRunFits(
  draft: GraphRunEntryDraft,
  logIds: readonly string[],
): Result<{ readonly entryBytes: number; readonly limitBytes: number }, AdmissionRefusal> {
  const worst = {
    ...draft,
    format: ENTRY_FORMAT_V3,
    logId: longest(logIds),
    seq: MAX_INT,
    prevHash: HASH,
    time: LONGEST_TIME,
    keyId: `ed25519:${'f'.repeat(32)}`,
  };
  const limitBytes = LIMIT_BYTES;
  const violation = entryViolation(worst, false);
  if (violation !== null)
    return err({
      code: 'entry-would-not-fit',
      message: `the run cannot be recorded in a ledger entry: ${violation}`,
      worstCaseEntryBytes: 0,
      limitBytes,
    });
  const bytes = Buffer.byteLength(canonicalText({ ...worst, signature: 'f'.repeat(128) }), 'utf8');
  if (bytes > limitBytes)
    return err({
      code: 'entry-would-not-fit',
      message: `the entry recording this graph run takes up to ${bytes} bytes; a ledger item holds at most ${limitBytes} bytes of entry`,
      worstCaseEntryBytes: bytes,
      limitBytes,
    });
  return ok({ entryBytes: bytes, limitBytes });
}
