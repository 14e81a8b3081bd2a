import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CARRIER_LIMITS } from '../../core/carrier/index.js';
import { readCanonicalRecord, readCanonicalText } from '../../core/ledger/primitives/canonical.js';
import { readLedgerExport } from '../../core/ledger/export/export.js';
import { readLedgerExportFast } from '../../core/ledger/verify/fast-read.js';

const SCENARIOS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'scenarios');
const exports = readdirSync(SCENARIOS)
  .filter((n) => !n.endsWith('.json'))
  .map((n) => new Uint8Array(readFileSync(join(SCENARIOS, n, 'ledger.jsonl'))));
const bodies = [
  ...new Set(
    exports.flatMap((b) => {
      const r = readLedgerExport(b);
      return r.ok ? r.value.entries.map((e) => e.body) : [];
    }),
  ),
];

/** A seeded xorshift generator: the mutations are the same on every run. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

const SNIPPETS = [
  ' ',
  '"work":1,',
  '"work":',
  '\\u0041',
  '\\ud800',
  '\\udc00',
  '1.0',
  '-0',
  '1e2',
  '9007199254740993',
  '"10":1,',
  '"__proto__":{},',
  '{',
  '}',
  ',',
  '\\/',
  '"a\\u00e9"',
  'é',
  '\u{1F600}',
  '"',
];

function mutate(body: string, next: () => number): string {
  const at = Math.floor(next() * (body.length + 1));
  const k = Math.floor(next() * 3);
  const snippet = SNIPPETS[Math.floor(next() * SNIPPETS.length)] as string;
  if (k === 0) return body.slice(0, at) + snippet + body.slice(at);
  if (k === 1) return body.slice(0, at) + body.slice(at + 1 + Math.floor(next() * 4));
  return body.slice(0, at) + snippet + body.slice(at + snippet.length);
}

describe('the fast canonical reader', () => {
  it('agrees with the strict ledger reader on every corpus body and on 20,000 seeded mutations of them', () => {
    expect(bodies.length).toBeGreaterThan(50);
    const next = rng(20261202);
    let accepted = 0;
    let refused = 0;
    const check = (text: string) => {
      const fast = readCanonicalText(text);
      const strict = readCanonicalRecord(new TextEncoder().encode(text));
      expect(fast.ok, text).toBe(strict.ok);
      if (fast.ok && strict.ok) {
        expect(fast.value).toEqual(strict.value);
        accepted += 1;
      } else refused += 1;
    };
    for (const b of bodies) check(b);
    for (let i = 0; i < 20_000; i++) check(mutate(bodies[Math.floor(next() * bodies.length)] as string, next));
    // Both outcomes occur, so the agreement is not vacuous.
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(10_000);
  });

  it('accepts canonical records with integer-like member names only through the strict reader, with the same value', () => {
    const text = '{"10":1,"2":2}';
    expect(readCanonicalText(text)).toEqual(readCanonicalRecord(new TextEncoder().encode(text)));
    expect(readCanonicalText(text).ok).toBe(true);
  });

  it('gives the strict reader’s answer at and beyond the carrier’s limits, and never throws however deep the nesting', () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const cases = [
      nested(DEFAULT_CARRIER_LIMITS.depth),
      nested(DEFAULT_CARRIER_LIMITS.depth + 1),
      nested(1_000),
      nested(200_000),
      `[${'0,'.repeat(DEFAULT_CARRIER_LIMITS.collectionSize)}0]`,
      `{"a":[${'[],'.repeat(DEFAULT_CARRIER_LIMITS.collectionSize - 1)}[]]}`,
    ];
    const answers = cases.map((text) => {
      const strict = readCanonicalRecord(new TextEncoder().encode(text));
      expect(readCanonicalText(text)).toEqual(strict);
      return strict.ok ? 'ok' : strict.error;
    });
    expect(answers).toEqual([
      'ok',
      'carrier: limit-depth',
      'carrier: limit-depth',
      'carrier: limit-depth',
      'carrier: limit-collection-size',
      'ok',
    ]);
  });
});

describe('the fast export reader', () => {
  it('returns exactly what the strict export reader returns for every corpus export', () => {
    for (const b of exports) expect(readLedgerExportFast(b)).toEqual(readLedgerExport(b));
  });

  it('returns exactly what the strict export reader returns for non-canonical, duplicated, truncated and lone-surrogate lines', () => {
    const base = new TextDecoder().decode(exports[0] as Uint8Array);
    const lines = base.split('\n');
    const variants = [
      base.replace('{"body"', '{ "body"'),
      base.replace('"seq":1}', '"seq":1,"seq":2}'),
      base.replace('"seq":1}', '"seq":1.0}'),
      base.replace('"logId":"log-a"', '"logId":"log-\\ud800a"'),
      base.slice(0, -5),
      `${lines[0]}\n\n`,
      base.replace('"kind":', '"extra":1,"kind":'),
    ];
    for (const v of variants) {
      const bytes = new TextEncoder().encode(v);
      expect(readLedgerExportFast(bytes), v.slice(0, 80)).toEqual(readLedgerExport(bytes));
    }
  });
});
