/**
 * DynamoDB's capacity arithmetic for the AWS scale model, as AWS documents it and docs/adr/0280-aws-scale-model.md
 * ("DynamoDB units", "Per-key limits") states it; beyond it, a string value is its UTF-8 bytes, a binary value its
 * length, a list or a map 3 bytes plus 1 per element plus its elements (a map's element: its name and its value).
 */

export type AttributeValue =
  string | number | Uint8Array | readonly AttributeValue[] | { readonly [name: string]: AttributeValue };

const utf8 = new TextEncoder();

/** Bytes DynamoDB counts for a number: ⌈significant digits / 2⌉ + 1. */
export function numberSize(n: number): number {
  const digits = String(Math.abs(n)).replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

export function itemSize(item: Readonly<Record<string, AttributeValue>>): number {
  let n = 0;
  for (const [name, v] of Object.entries(item)) n += utf8.encode(name).length + valueSize(v);
  return n;
}

function valueSize(v: AttributeValue): number {
  if (typeof v === 'string') return utf8.encode(v).length;
  if (typeof v === 'number') return numberSize(v);
  if (v instanceof Uint8Array) return v.byteLength;
  if (Array.isArray(v)) return 3 + v.reduce((n: number, x: AttributeValue) => n + 1 + valueSize(x), 0);
  const entries = Object.entries(v as Record<string, AttributeValue>);
  return 3 + entries.reduce((n, [k, x]) => n + 1 + utf8.encode(k).length + valueSize(x), 0);
}

export const writeUnits = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1024));
export const readUnits = (bytes: number): number => Math.max(1, Math.ceil(bytes / 4096));

export interface KeyLimits {
  readonly wcuPerSecond: number;
  readonly rcuPerSecond: number;
  /** Unused capacity a key can save, in seconds of its limit. */
  readonly burstSeconds: number;
  /** Capacity a key holds when first used, in seconds of its limit. */
  readonly initialSeconds: number;
}

export const DYNAMODB_KEY_LIMITS: KeyLimits = Object.freeze({
  wcuPerSecond: 1000,
  rcuPerSecond: 3000,
  burstSeconds: 300,
  initialSeconds: 1,
});

/** One key's capacity of one kind (reads or writes). Time in milliseconds. */
export class TokenBucket {
  private level: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly burstSeconds: number,
    initialSeconds: number,
    startMs: number,
  ) {
    this.level = perSecond * Math.min(initialSeconds, burstSeconds);
    this.at = startMs;
  }

  /** Takes `units` at time `nowMs` if the bucket holds them; false (and nothing taken) when it would be throttled. */
  take(units: number, nowMs: number): boolean {
    const elapsed = Math.max(0, nowMs - this.at);
    this.level = Math.min(this.perSecond * this.burstSeconds, this.level + (elapsed / 1000) * this.perSecond);
    this.at = Math.max(this.at, nowMs);
    if (this.level < units) return false;
    this.level -= units;
    return true;
  }
}
