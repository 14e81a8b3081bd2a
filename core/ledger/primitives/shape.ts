/** The shape checks every strict reader of a ledger record or policy shares. */
import { utf8ByteLength } from '../../carrier/index.js';
import { isWellFormed } from './bytes.js';

export type Rec = Record<string, unknown>;

export const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A safe integer ≥ 0. */
export const isNat = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** True when `o` has exactly the members `names` (each once), in any order. */
export const exactly = (o: Rec, names: readonly string[]): boolean =>
  Object.keys(o).length === names.length && names.every((n) => Object.hasOwn(o, n));

/** The format of a record of another version of a family this reader does not read (`unsupported-version`), or null. */
export function otherVersion(x: unknown, family: string, known: readonly string[]): string | null {
  const f = isRec(x) ? x.format : undefined;
  return typeof f === 'string' && f.startsWith(family) && !known.includes(f) ? f : null;
}

// eslint-disable-next-line no-control-regex
export const CONTROL = /[\u0000-\u001f\u007f]/;

/** A well-formed string of at most `maxBytes` UTF-8 bytes. */
export const isMessage = (x: unknown, maxBytes: number): x is string =>
  typeof x === 'string' && isWellFormed(x) && utf8ByteLength(x) <= maxBytes;

/** A non-empty isMessage without control characters (unless `allowControl`). */
export const isBoundedText = (x: unknown, maxBytes: number, allowControl = false): x is string =>
  isMessage(x, maxBytes) && x.length > 0 && (allowControl || !CONTROL.test(x));
