/** The documented bound on the cost of validating a pack, checked before the schema runs (ADR 0202). */
import { describe, expect, it } from 'vitest';
import { loadPackBytes } from '../../core/admission/index.js';
import { readJson } from '../../core/carrier/index.js';
import { evaluateDocuments } from '../../core/evaluate/index.js';
import { validatePack } from '../../core/pack/index.js';
import { PackCodes } from '../../core/pack/codes.js';
import { countValues, MAX_PACK_VALUES } from '../../core/pack/validation-cost.js';

const enc = new TextEncoder();

/** A conformant pack holding exactly `values` JSON values: `in` rules whose candidate lists fill the count. */
function packOf(values: number): Uint8Array {
  const rule = (i: number, k: number) => ({
    id: `r${i}`,
    description: 'd',
    when: { op: 'fact', path: '/n', operator: 'in', value: Array<number>(k).fill(i) },
    outcome: 'one',
    onUnknown: 'ignore',
  });
  const doc = {
    specVersion: '0.3.0',
    id: 'urn:x:cost',
    version: '1.0.0',
    title: 'Cost',
    decision: { intent: 'i', question: 'q' },
    outcomes: [
      { id: 'one', label: 'One' },
      { id: 'other', label: 'Other' },
    ],
    rules: [rule(0, 1)],
    fallbackOutcome: 'other',
  };
  const base = 28; // the values of doc as written above (checked below)
  let left = values - base;
  for (let i = 1; left > 0; i++) {
    const k = Math.min(9_000, left - 10); // a rule with k candidates adds 10 + k values
    if (k < 1) throw new Error('cannot hit the count exactly');
    doc.rules.push(rule(i, k));
    left -= 10 + k;
  }
  const bytes = enc.encode(JSON.stringify(doc));
  const tree = readJson(bytes);
  if (!tree.ok || countValues(tree.value, Infinity) !== values) throw new Error('the generated pack miscounts');
  return bytes;
}

describe('the validation-cost bound', () => {
  it('counts every JSON value once, member names not included, and stops counting past the limit', () => {
    const tree = readJson(enc.encode('{"a":[1,"x",null,true,{"b":false}],"c":{}}'));
    if (!tree.ok) throw new Error('parse');
    expect(countValues(tree.value, 100)).toBe(9);
    expect(countValues(tree.value, 5)).toBe(6);
  });

  it('admits a pack of exactly the bound and refuses one value more, at the carrier layer, before the schema', () => {
    const atBound = validatePack(packOf(MAX_PACK_VALUES), { overlapCheck: false });
    expect(atBound.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(atBound.conformant).toBe(true);
    const over = validatePack(packOf(MAX_PACK_VALUES + 1));
    expect(over.conformant).toBe(false);
    expect(over.class).toBe('carrier');
    expect(over.diagnostics).toEqual([
      expect.objectContaining({ code: PackCodes.LIMIT_VALIDATION_COST, severity: 'error', limit: MAX_PACK_VALUES }),
    ]);
  }, 60_000);

  it('is refused first even when the pack would also fail the schema', () => {
    const doc = { specVersion: '0.3.0', junk: Array<number>(9_999).fill(0), more: Array<number>(9_999).fill(0) };
    const v = validatePack(enc.encode(JSON.stringify(doc)), { maxValues: 10_000 });
    expect(v.diagnostics.map((d) => d.code)).toEqual([PackCodes.LIMIT_VALIDATION_COST]);
  });

  it('gives the evaluator pack-not-conformant (pack-carrier) and the pipeline a not-conformant stored pack', () => {
    const bytes = packOf(MAX_PACK_VALUES + 1);
    const r = evaluateDocuments({ pack: bytes, facts: enc.encode('{"n":1}'), supportedExtensions: new Set() });
    expect(r.kind === 'error' && r.error).toMatchObject({
      class: 'pack-not-conformant',
      phase: 'preflight',
      code: 'pack-carrier',
    });
    expect(r.kind === 'error' && r.error.message).toContain(PackCodes.LIMIT_VALIDATION_COST);
    const loaded = loadPackBytes('0'.repeat(64), bytes);
    expect(loaded.status).toBe('not-conformant');
    expect(loaded.status === 'not-conformant' && loaded.message).toContain(PackCodes.LIMIT_VALIDATION_COST);
  }, 60_000);
});
