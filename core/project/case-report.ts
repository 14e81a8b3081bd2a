/**
 * What a run of a project's expected results reports (`docket test`, publishing's gate): per case pass or fail
 * and, for a failure, the first difference between what the case expects and what the evaluator answered.
 */
import canonicalize from 'canonicalize';
import { escapeToken } from '../carrier/pointer.js';

/** The first place expected and actual differ: an RFC 6901 pointer into the compared value, and both sides there. */
export interface Difference {
  /** What was compared: "disposition", "handoffTarget", "error", or "nodes/<id>" for a graph row's node. */
  readonly subject: string;
  readonly pointer: string;
  readonly expected: unknown;
  /** undefined when the actual value has nothing at the pointer. */
  readonly actual: unknown;
}

export interface CaseOutcome {
  readonly id: string;
  readonly passed: boolean;
  readonly difference?: Difference;
}

/** One matrix (a pack's `matrix`) or rows file (a graph's `rows`) run in full, or refused before any case ran. */
export interface SuiteReport {
  readonly kind: 'pack' | 'graph';
  /** The jpack.json key. */
  readonly name: string;
  /** The declared file, relative to the project. */
  readonly file: string;
  /** SHA-256 of the file's exact bytes, "sha256:<hex>": what the cases were read from. */
  readonly digest?: string;
  readonly cases: readonly CaseOutcome[];
  /** Why no case ran: the file is unreadable or not a matrix of this kind. */
  readonly error?: { readonly code: string; readonly message: string };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first difference between two JSON values, members in the expected value's order; undefined when equal. */
export function firstDifference(
  subject: string,
  expected: unknown,
  actual: unknown,
  pointer = '',
): Difference | undefined {
  if (canonicalize(expected) === canonicalize(actual)) return undefined;
  if (isObject(expected) && isObject(actual)) {
    for (const k of Object.keys(expected)) {
      const d = firstDifference(subject, expected[k], actual[k], `${pointer}/${escapeToken(k)}`);
      if (d !== undefined) return d;
    }
    const extra = Object.keys(actual).find((k) => !(k in expected));
    if (extra !== undefined)
      return { subject, pointer: `${pointer}/${escapeToken(extra)}`, expected: undefined, actual: actual[extra] };
  }
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length)
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(subject, expected[i], actual[i], `${pointer}/${i}`);
      if (d !== undefined) return d;
    }
  return { subject, pointer, expected, actual };
}

export const passedCount = (s: SuiteReport): number => s.cases.filter((c) => c.passed).length;
export const suitePassed = (s: SuiteReport): boolean => s.error === undefined && s.cases.every((c) => c.passed);
