import { readJson, type CarrierError } from '../carrier/index.js';
import type { JsonValue } from '../carrier/json-value.js';
import { err, ok, type Result } from '../result.js';
import { FALSE, TRUE, UNKNOWN, type CompiledPack } from './compiled-pack.js';
import { MAX_WORK_BUDGET, DEFAULT_WORK_BUDGET } from './limits.js';
import type { EvaluationError } from './types.js';

/** §8.2 input preflight (everything after the pack): completed before §8 step 1 so no result can outrace it. */

const malformed = (code: string, message: string): EvaluationError => ({ class: 'malformed-input', phase: 'preflight', code, message });

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
  const presence = c.scratch.evidence;
  presence.fill(UNKNOWN);
  const r = readJson(bytes, carrierOptions(c));
  if (!r.ok) return malformed(`evidence-${r.error.code}`, carrierMessage('the evidence-availability document', r.error));
  if (r.value.kind !== 'object') return malformed('evidence-not-object', 'the evidence-availability document must be a JSON object (§8.2)');
  for (const [name, value] of r.value.members) {
    const index = c.evidenceIndex.get(name);
    if (index === undefined) {
      return malformed('evidence-undeclared-requirement', `evidence names ${JSON.stringify(name)}, which is not a declared evidence requirement id (§8.2)`);
    }
    const state = value.kind === 'string' ? value.value : undefined;
    if (state === 'present') presence[index] = TRUE;
    else if (state === 'absent') presence[index] = FALSE;
    else if (state === 'unknown') presence[index] = UNKNOWN;
    else return malformed('evidence-invalid-value', `evidence for ${JSON.stringify(name)} must be "present", "absent" or "unknown" (§8.2)`);
  }
  return undefined;
}

/**
 * ADR 0037: evidence documents are small and repeat (a few declared ids × three states), so the admission of a short
 * one is memoized per compiled pack, keyed by its exact bytes. The answer is a pure function of (pack, bytes), so a
 * hit is indistinguishable from re-reading.
 */
const MEMO_MAX_BYTES = 512;
const MEMO_MAX_ENTRIES = 256;
const memo = new WeakMap<CompiledPack, Map<string, Uint8Array | EvaluationError>>();

/** Fills the per-evaluation presence table (§7.5) from the evidence-availability document, or says why it is refused. */
export function admitEvidence(c: CompiledPack, bytes: Uint8Array | undefined): EvaluationError | undefined {
  const presence = c.scratch.evidence;
  if (bytes === undefined) {
    presence.fill(UNKNOWN); // §8.2: an omitted document is the implicit empty object
    return undefined;
  }
  if (bytes.length > MEMO_MAX_BYTES) return readEvidence(c, bytes);
  // One char per byte: an injective key for the exact bytes.
  const key = String.fromCharCode.apply(null, bytes as unknown as number[]);
  let entries = memo.get(c);
  if (entries === undefined) memo.set(c, (entries = new Map()));
  const hit = entries.get(key);
  if (hit !== undefined) {
    if (hit instanceof Uint8Array) {
      presence.set(hit);
      return undefined;
    }
    return hit;
  }
  const refused = readEvidence(c, bytes);
  if (entries.size >= MEMO_MAX_ENTRIES) entries.clear();
  entries.set(key, refused === undefined ? presence.slice() : Object.freeze(refused));
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
