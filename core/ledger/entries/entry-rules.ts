/**
 * Every invariant of a "docket.ledger-entry/1" or "/2" entry (/2 = /1 plus a non-empty `draftFeatures`; ADR 0220),
 * and of a "/3" graph run (ADR 0360; its own members in graph-run-rules.ts), checked by the one builder before it emits bytes and by the
 * strict reader after it parses them. Returns the first violation as a short rule text, or null.
 * The disposition is checked by the evaluator's own rules (Core §8.3, checkDisposition), and its digest must be the
 * SHA-256 of its RFC 8785 bytes, written by the ledger's serializer: a disposition holds only strings under Core's
 * ASCII member names, where that serializer is RFC 8785 (docs/adr/0055-ledger-canonical-serializer.md) and writes
 * what the evaluator's canonicalDisposition writes, at a third of its cost on the handoff path
 * (docs/adr/0491-handoff-consumer-throughput.md).
 */
import { checkDisposition } from '../../evaluate/disposition.js';
import { EVALUATION_ERROR_CLASSES, type Disposition } from '../../evaluate/types.js';
import { isHex, sha256Hex } from '../primitives/bytes.js';
import { canonicalText } from '../primitives/canonical.js';
import {
  ENTRY_FORMAT,
  ENTRY_FORMAT_V2,
  ENTRY_FORMAT_V3,
  ENTRY_KINDS,
  ENTRY_LIMITS,
  REFUSAL_CODES,
} from './entry-types.js';
import { graphRunViolation } from './graph-run-rules.js';
import { KEY_ID_PATTERN } from '../primitives/signature.js';
import { CONTROL, isBoundedText, isMessage, isNat, isRec, type Rec } from '../primitives/shape.js';

const COMMON = [
  'format',
  'kind',
  'logId',
  'seq',
  'prevHash',
  'requestId',
  'requestDigest',
  'correlation',
  'pack',
  'specVersion',
  'factsDigest',
  'evidenceDigest',
  'supportedExtensions',
  'workBudget',
  'work',
  'evaluator',
  'time',
  'keyId',
];
const BY_KIND: Record<string, readonly string[]> = {
  disposition: [...COMMON, 'disposition', 'dispositionDigest'],
  'evaluation-error': [...COMMON, 'error'],
  'admission-refusal': [...COMMON, 'refusal'],
};
/** The top-level members of a signed entry of each kind, and the allowed set (built once, not per entry). */
const withMember = (byKind: Record<string, readonly string[]>, member: string): Record<string, readonly string[]> =>
  Object.fromEntries(Object.entries(byKind).map(([k, m]) => [k, [...m, member]]));
const SIGNED_MEMBERS = withMember(BY_KIND, 'signature');
// Format /2 is /1 plus draftFeatures (ADR 0220); a /1 entry carrying it has an unknown member.
const BY_KIND_V2 = withMember(BY_KIND, 'draftFeatures');
const SIGNED_MEMBERS_V2 = withMember(BY_KIND_V2, 'signature');
// Format /3 holds graph runs only (ADR 0360): the common members without the pack-shaped ones, plus the run's.
const BY_KIND_V3: Record<string, readonly string[]> = {
  'graph-run': [
    ...COMMON.filter((m) => !['pack', 'specVersion', 'factsDigest', 'evidenceDigest'].includes(m)),
    'draftFeatures',
    'graph',
    'packs',
    'graphs',
    'inputsDigest',
    'run',
  ],
};
const SIGNED_MEMBERS_V3 = withMember(BY_KIND_V3, 'signature');
const ALLOWED: ReadonlyMap<readonly string[], ReadonlySet<string>> = new Map(
  [BY_KIND, SIGNED_MEMBERS, BY_KIND_V2, SIGNED_MEMBERS_V2, BY_KIND_V3, SIGNED_MEMBERS_V3].flatMap((t) =>
    Object.values(t).map((m) => [m, new Set(m)]),
  ),
);
const ERROR_CLASSES: ReadonlySet<string> = new Set(EVALUATION_ERROR_CLASSES);
const REFUSALS: ReadonlySet<string> = new Set(REFUSAL_CODES);

/** Log ids name DynamoDB partition keys ("log#<logId>") and file names: a short ASCII token. */
export const LOG_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Stable machine codes (error codes): lowercase ASCII words joined by '-'. */
const CODE_PATTERN = /^[a-z0-9]+(?:[-.][a-z0-9]+)*$/;

/** The value of two ASCII digits at i and i + 1 (the pattern's \\d is [0-9]), or −1. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * RFC 3339 "date-time" restricted to UTC 'Z' with 0–9 fraction digits (docs/ledger-format.md), read by character
 * codes (one call per entry on the verify path): YYYY-MM-DDTHH:MM:SS, optionally "." and 1–9 digits, then "Z",
 * with the calendar checks; test/ledger/time-rule.test.ts compares it with the regular expression it replaces.
 */
export function isRfc3339Utc(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const n = s.length;
  if (n < 20 || n === 21 || n > 30 || s.charCodeAt(n - 1) !== 0x5a) return false; // 'Z'
  if (s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':') return false;
  if (n > 20) {
    if (s[19] !== '.') return false;
    for (let i = 20; i < n - 1; i++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return false;
    }
  }
  const yHi = twoDigits(s, 0);
  const yLo = twoDigits(s, 2);
  const [mo, d, h, mi, se] = [twoDigits(s, 5), twoDigits(s, 8), twoDigits(s, 11), twoDigits(s, 14), twoDigits(s, 17)];
  if (yHi < 0 || yLo < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || se < 0) return false;
  const y = yHi * 100 + yLo;
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || se > 60) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][
    mo - 1
  ] as number;
  return d >= 1 && d <= days;
}

function onlyMembers(o: Rec, allowed: readonly string[], required: readonly string[], where: string): string | null {
  const set = ALLOWED.get(allowed);
  for (const k of Object.keys(o))
    if (!(set !== undefined ? set.has(k) : allowed.includes(k))) return `${where} has no member ${JSON.stringify(k)}`;
  for (const k of required) if (!Object.hasOwn(o, k)) return `${where}.${k} is present`;
  return null;
}

function packViolation(p: unknown, kind: string): string | null {
  if (p === null)
    return kind === 'admission-refusal' ? null : 'pack is an object unless the entry is an admission refusal';
  if (!isRec(p)) return 'pack is an object or null';
  const bad = onlyMembers(p, ['id', 'version', 'digest'], ['digest'], 'pack');
  if (bad !== null) return bad;
  if (!isHex(p.digest, 32)) return 'pack.digest is 64 lowercase hex digits';
  if (Object.hasOwn(p, 'id') !== Object.hasOwn(p, 'version')) return 'pack.id and pack.version are present together';
  if (Object.hasOwn(p, 'id')) {
    if (!isBoundedText(p.id, ENTRY_LIMITS.packIdBytes))
      return 'pack.id is a non-empty string without control characters';
    if (!isBoundedText(p.version, ENTRY_LIMITS.packVersionBytes))
      return 'pack.version is a non-empty string without control characters';
  } else if (kind === 'disposition') return 'a disposition names the pack id and version';
  return null;
}

function correlationViolation(c: unknown): string | null {
  if (c === null) return null;
  if (!isRec(c)) return 'correlation is an object or null';
  const names = Object.keys(c);
  if (names.length === 0) return 'correlation is null rather than empty';
  if (names.length > ENTRY_LIMITS.correlationMembers)
    return `correlation has at most ${ENTRY_LIMITS.correlationMembers} members`;
  for (const n of names) {
    if (!/^[\x21-\x7e]+$/.test(n) || n.length > ENTRY_LIMITS.correlationNameBytes)
      return 'correlation member names are printable ASCII without spaces, at most 64 bytes';
    const v = c[n];
    if (!isMessage(v, ENTRY_LIMITS.correlationValueBytes) || CONTROL.test(v))
      return 'correlation values are strings of at most 256 bytes without control characters';
  }
  return null;
}

function extensionsViolation(x: unknown): string | null {
  if (!Array.isArray(x)) return 'supportedExtensions is an array';
  if (x.length > ENTRY_LIMITS.supportedExtensions)
    return `supportedExtensions has at most ${ENTRY_LIMITS.supportedExtensions} names`;
  for (let i = 0; i < x.length; i++) {
    if (!isBoundedText(x[i], ENTRY_LIMITS.extensionNameBytes)) return 'supportedExtensions holds non-empty strings';
    if (i > 0 && !((x[i - 1] as string) < (x[i] as string)))
      return 'supportedExtensions is sorted ascending and duplicate-free';
  }
  return null;
}

/** A draft feature name as the format records it: a lowercase token, e.g. "rfc0008-quantifiers" (ADR 0220). */
export const DRAFT_FEATURE_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function draftFeaturesViolation(x: unknown): string | null {
  if (!Array.isArray(x) || x.length === 0) return 'draftFeatures is a non-empty array in format /2';
  if (x.length > ENTRY_LIMITS.draftFeatures) return `draftFeatures has at most ${ENTRY_LIMITS.draftFeatures} names`;
  for (let i = 0; i < x.length; i++) {
    const f: unknown = x[i];
    if (typeof f !== 'string' || f.length > ENTRY_LIMITS.draftFeatureNameBytes || !DRAFT_FEATURE_NAME_PATTERN.test(f))
      return 'draftFeatures holds lowercase feature names of at most 64 bytes';
    if (i > 0 && !((x[i - 1] as string) < f)) return 'draftFeatures is sorted ascending and duplicate-free';
  }
  return null;
}

function evaluatorViolation(e: unknown): string | null {
  if (!isRec(e)) return 'evaluator is an object';
  const bad = onlyMembers(e, ['name', 'version', 'buildDigest'], ['name', 'version', 'buildDigest'], 'evaluator');
  if (bad !== null) return bad;
  if (!isBoundedText(e.name, ENTRY_LIMITS.evaluatorNameBytes)) return 'evaluator.name is a non-empty string';
  if (!isBoundedText(e.version, ENTRY_LIMITS.evaluatorVersionBytes)) return 'evaluator.version is a non-empty string';
  if (!isHex(e.buildDigest, 32)) return 'evaluator.buildDigest is 64 lowercase hex digits';
  return null;
}

function dispositionViolation(o: Rec, sorted: boolean): string | null {
  let bytes: string;
  try {
    checkDisposition(o.disposition as Disposition);
    // A member of a value the checked fast path proved sorted (canonical.ts provenCanonicalValue) is itself a sorted
    // ledger value, whose RFC 8785 text is JSON.stringify's (docs/adr/0494-handoff-consumer-reads-body-text.md).
    bytes = sorted ? JSON.stringify(o.disposition) : canonicalText(o.disposition);
  } catch (e) {
    return `disposition satisfies Core §8.3 (${e instanceof Error ? e.message : String(e)})`;
  }
  if (o.dispositionDigest !== sha256Hex(bytes))
    return 'dispositionDigest is the SHA-256 of the RFC 8785 disposition bytes';
  return null;
}

function errorViolation(e: unknown): string | null {
  if (!isRec(e)) return 'error is an object';
  const bad = onlyMembers(e, ['class', 'phase', 'code', 'message'], ['class', 'phase', 'code', 'message'], 'error');
  if (bad !== null) return bad;
  if (typeof e.class !== 'string' || !ERROR_CLASSES.has(e.class)) return 'error.class is a Core §8.4 class';
  if (e.phase !== 'preflight' && e.phase !== 'evaluation') return 'error.phase is preflight or evaluation';
  if (typeof e.code !== 'string' || e.code.length > ENTRY_LIMITS.errorCodeBytes || !CODE_PATTERN.test(e.code))
    return 'error.code is a stable lowercase code';
  if (!isMessage(e.message, ENTRY_LIMITS.errorMessageBytes))
    return `error.message is a string of at most ${ENTRY_LIMITS.errorMessageBytes} bytes`;
  return null;
}

function refusalViolation(r: unknown): string | null {
  if (!isRec(r)) return 'refusal is an object';
  const bad = onlyMembers(r, ['code', 'message'], ['code', 'message'], 'refusal');
  if (bad !== null) return bad;
  if (typeof r.code !== 'string' || !REFUSALS.has(r.code)) return 'refusal.code is a documented refusal code';
  if (!isMessage(r.message, ENTRY_LIMITS.refusalMessageBytes))
    return `refusal.message is a string of at most ${ENTRY_LIMITS.refusalMessageBytes} bytes`;
  return null;
}

/** Per format: the members of each kind, unsigned and signed. */
const MEMBERS_BY_FORMAT = new Map<unknown, readonly Record<string, readonly string[]>[]>([
  [ENTRY_FORMAT, [BY_KIND, SIGNED_MEMBERS]],
  [ENTRY_FORMAT_V2, [BY_KIND_V2, SIGNED_MEMBERS_V2]],
  [ENTRY_FORMAT_V3, [BY_KIND_V3, SIGNED_MEMBERS_V3]],
]);

/** The member list of an entry of this (checked) format and kind (empty for a kind the format does not hold). */
const membersOf = (format: unknown, kind: string, signed: boolean): readonly string[] =>
  MEMBERS_BY_FORMAT.get(format)![signed ? 1 : 0]![kind] ?? [];

/** The members every kind shares, after the kind-specific ones were checked. */
function tailViolation(x: Rec, signed: boolean): string | null {
  const ev = evaluatorViolation(x.evaluator);
  if (ev !== null) return ev;
  if (!isRfc3339Utc(x.time)) return 'time is an RFC 3339 UTC date-time (…Z)';
  if (typeof x.keyId !== 'string' || !KEY_ID_PATTERN.test(x.keyId))
    return 'keyId is "ed25519:" + 32 lowercase hex digits';
  if (signed && !isHex(x.signature, 64)) return 'signature is 128 lowercase hex digits';
  return null;
}

/**
 * First violated invariant of an entry (without `signature` when `signed` is false), or null when it holds them all.
 * `sorted`: `x` is a value the checked fast path proved a sorted ledger value (provenCanonicalValue).
 */
export function entryViolation(x: unknown, signed: boolean, sorted = false): string | null {
  if (!isRec(x)) return 'an entry is an object';
  if (x.format !== ENTRY_FORMAT && x.format !== ENTRY_FORMAT_V2 && x.format !== ENTRY_FORMAT_V3)
    return `format is ${ENTRY_FORMAT}, ${ENTRY_FORMAT_V2} or ${ENTRY_FORMAT_V3}`;
  if (typeof x.kind !== 'string' || !(ENTRY_KINDS as readonly string[]).includes(x.kind))
    return 'kind is disposition, evaluation-error, admission-refusal or graph-run';
  const kind = x.kind;
  const graphRun = kind === 'graph-run';
  if ((x.format === ENTRY_FORMAT_V3) !== graphRun)
    return `a graph-run entry is format ${ENTRY_FORMAT_V3}, and that format holds graph runs only`;
  const v2 = x.format !== ENTRY_FORMAT;
  const members = membersOf(x.format, kind, signed);
  const bad = onlyMembers(x, members, members, 'entry');
  if (bad !== null) return bad;
  if (typeof x.logId !== 'string' || !LOG_ID_PATTERN.test(x.logId))
    return 'logId is 1–64 characters of [A-Za-z0-9._-] starting alphanumeric';
  if (!isNat(x.seq)) return 'seq is a non-negative integer within 2^53−1';
  if (x.seq === 0 ? x.prevHash !== null : !isHex(x.prevHash, 32))
    return 'prevHash is null at seq 0 and otherwise 64 lowercase hex digits';
  if (!isBoundedText(x.requestId, ENTRY_LIMITS.requestIdBytes))
    return 'requestId is a non-empty string of at most 256 bytes without control characters';
  if (!isHex(x.requestDigest, 32)) return 'requestDigest is 64 lowercase hex digits';
  if (graphRun)
    return (
      correlationViolation(x.correlation) ??
      extensionsViolation(x.supportedExtensions) ??
      draftFeaturesViolation(x.draftFeatures) ??
      (isNat(x.work) ? null : 'work is a non-negative integer') ??
      tailViolation(x, signed) ??
      graphRunViolation(x)
    );
  const first = correlationViolation(x.correlation) ?? packViolation(x.pack, kind);
  if (first !== null) return first;
  const refusal = kind === 'admission-refusal';
  if (
    x.specVersion === null
      ? !refusal && kind === 'disposition'
      : !isBoundedText(x.specVersion, ENTRY_LIMITS.specVersionBytes)
  )
    return 'specVersion is a string (null only without a readable pack)';
  if (x.factsDigest === null ? !refusal : !isHex(x.factsDigest, 32))
    return 'factsDigest is 64 lowercase hex digits (null only in an admission refusal)';
  if (x.evidenceDigest !== null && !isHex(x.evidenceDigest, 32))
    return 'evidenceDigest is 64 lowercase hex digits or null';
  const lists = extensionsViolation(x.supportedExtensions) ?? (v2 ? draftFeaturesViolation(x.draftFeatures) : null);
  if (lists !== null) return lists;
  if (x.workBudget === null ? !refusal : !(isNat(x.workBudget) && x.workBudget >= 1))
    return 'workBudget is a positive integer (null only in an admission refusal)';
  if (!isNat(x.work)) return 'work is a non-negative integer';
  if (refusal && x.work !== 0) return 'an admission refusal charges no work';
  const tail = tailViolation(x, signed);
  if (tail !== null) return tail;
  if (kind === 'disposition') return dispositionViolation(x, sorted);
  if (kind === 'evaluation-error') return errorViolation(x.error);
  return refusalViolation(x.refusal);
}
