import { readJson, type CarrierError } from '../carrier/index.js';
import type { JsonValue } from '../carrier/json-value.js';
import { err, ok, type Result } from '../result.js';
import { FALSE, TRUE, UNKNOWN, type CompiledPack } from './compiled-pack.js';
import { MAX_WORK_BUDGET, DEFAULT_WORK_BUDGET } from './limits.js';
import type { EvaluationError } from './types.js';

/** §8.2 input preflight (everything after the pack): completed before §8 step 1 so no result can outrace it. */

const malformed = (code: string, message: string): EvaluationError => ({
  class: 'malformed-input',
  phase: 'preflight',
  code,
  message,
});

const carrierMessage = (what: string, e: CarrierError): string =>
  `${what} is not a carrier-conforming JSON text (§2.1): ${e.message}${e.offset === undefined ? '' : ` at byte ${e.offset}`}`;

/** ADR 0030: facts and evidence are read under the carrier contract of the pack's own specVersion. */
const CARRIER_0_3_0 = Object.freeze({ allowLoneSurrogates: false });
const CARRIER_0_2_0_DRAFT = Object.freeze({ allowLoneSurrogates: true });
const carrierOptions = (c: CompiledPack) => (c.specVersion === '0.2.0-draft' ? CARRIER_0_2_0_DRAFT : CARRIER_0_3_0);

/** ADR 0033: a budget is a safe integer in 1..MAX_WORK_BUDGET; anything else is refused, never clamped. */
export function admitBudget(budget: number | undefined): Result<number, EvaluationError> {
  if (budget === undefined) return ok(DEFAULT_WORK_BUDGET);
  if (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < 1 || budget > MAX_WORK_BUDGET) {
    return err(malformed('work-budget-invalid', `the work budget must be an integer from 1 to ${MAX_WORK_BUDGET}`));
  }
  return ok(budget);
}

/** §8.2: one JSON facts document, carrier-conforming; a carrier limit reached while admitting it is malformed-input. */
export function admitFacts(c: CompiledPack, bytes: Uint8Array): Result<JsonValue, EvaluationError> {
  const r = readJson(bytes, carrierOptions(c));
  return r.ok ? r : err(malformed(`facts-${r.error.code}`, carrierMessage('the facts document', r.error)));
}

/**
 * §8.2 evidence availability: a JSON object whose member names are declared requirement ids and whose values are
 * exactly "present", "absent" or "unknown"; an omitted key, or an omitted document, means unknown. Fills the
 * per-evaluation presence table (§7.5). Members are checked in document order; the first violation is reported.
 */
function readEvidence(c: CompiledPack, bytes: Uint8Array): EvaluationError | undefined {
  const r = readJson(bytes, carrierOptions(c));
  if (!r.ok)
    return malformed(`evidence-${r.error.code}`, carrierMessage('the evidence-availability document', r.error));
  return admitEvidenceValue(c, r.value);
}

/**
 * The §8.2 evidence checks on a document already read by the strict carrier under the pack's contract (ADR 0030);
 * fills the presence table exactly as reading the document's bytes would. `undefined` is the omitted document.
 */
export function admitEvidenceValue(c: CompiledPack, document: JsonValue | undefined): EvaluationError | undefined {
  const presence = c.scratch.evidence;
  presence.fill(UNKNOWN);
  if (document === undefined) return undefined; // §8.2: an omitted document is the implicit empty object
  if (document.kind !== 'object')
    return malformed('evidence-not-object', 'the evidence-availability document must be a JSON object (§8.2)');
  for (const [name, value] of document.members) {
    const index = c.evidenceIndex.get(name);
    if (index === undefined) {
      return malformed(
        'evidence-undeclared-requirement',
        `evidence names ${JSON.stringify(name)}, which is not a declared evidence requirement id (§8.2)`,
      );
    }
    const state = value.kind === 'string' ? value.value : undefined;
    if (state === 'present') presence[index] = TRUE;
    else if (state === 'absent') presence[index] = FALSE;
    else if (state === 'unknown') presence[index] = UNKNOWN;
    else
      return malformed(
        'evidence-invalid-value',
        `evidence for ${JSON.stringify(name)} must be "present", "absent" or "unknown" (§8.2)`,
      );
  }
  return undefined;
}

/**
 * ADR 0037: evidence documents are small and repeat (a few declared ids × three states), so the admission of a short
 * one is memoized per compiled pack, keyed by its exact bytes (hash, then a full byte comparison). The answer is a pure function of (pack, bytes), so a
 * hit is indistinguishable from re-reading.
 */
const MEMO_MAX_BYTES = 512;
const MEMO_MAX_ENTRIES = 256;

interface MemoEntry {
  readonly bytes: Uint8Array;
  readonly answer: Uint8Array | EvaluationError;
}
interface Memo {
  /** FNV-1a of the bytes → entries with that hash; a hit also compares every byte. */
  readonly byHash: Map<number, MemoEntry[]>;
  size: number;
}
const memo = new WeakMap<CompiledPack, Memo>();

function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Fills the per-evaluation presence table (§7.5) from the evidence-availability document, or says why it is refused. */
export function admitEvidence(c: CompiledPack, bytes: Uint8Array | undefined): EvaluationError | undefined {
  const presence = c.scratch.evidence;
  if (bytes === undefined) {
    presence.fill(UNKNOWN); // §8.2: an omitted document is the implicit empty object
    return undefined;
  }
  if (bytes.length > MEMO_MAX_BYTES) return readEvidence(c, bytes);
  let m = memo.get(c);
  if (m === undefined) memo.set(c, (m = { byHash: new Map(), size: 0 }));
  const hash = fnv1a(bytes);
  const bucket = m.byHash.get(hash);
  if (bucket !== undefined) {
    for (const entry of bucket) {
      if (!sameBytes(entry.bytes, bytes)) continue;
      if (entry.answer instanceof Uint8Array) {
        presence.set(entry.answer);
        return undefined;
      }
      return entry.answer;
    }
  }
  const refused = readEvidence(c, bytes);
  if (m.size >= MEMO_MAX_ENTRIES) {
    m.byHash.clear();
    m.size = 0;
  }
  // Copies: the caller may reuse its buffer, and a later hit must compare against the bytes actually read.
  const entry: MemoEntry = {
    bytes: bytes.slice(),
    answer: refused === undefined ? presence.slice() : Object.freeze(refused),
  };
  const b = m.byHash.get(hash);
  if (b === undefined) m.byHash.set(hash, [entry]);
  else b.push(entry);
  m.size++;
  return refused;
}

/** §9/§8.4: every metadata.requiredExtensions capability must be supported; reports all unsupported ones. */
export function checkExtensions(c: CompiledPack, supported: ReadonlySet<string>): EvaluationError | undefined {
  const missing = c.requiredExtensions.filter((x) => !supported.has(x));
  if (missing.length === 0) return undefined;
  return {
    class: 'unsupported-required-extension',
    phase: 'preflight',
    code: 'unsupported-required-extension',
    message: `the pack requires unsupported extension capabilities (§9): ${missing.map((x) => JSON.stringify(x)).join(', ')}`,
  };
}
