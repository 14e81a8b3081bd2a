import { describe, expect, it } from 'vitest';
import { validatePack } from '../../core/pack/index.js';
import { packWith, Q } from './helpers.js';

const enc = new TextEncoder();
const avail = { op: 'fact', path: '/available', operator: 'equals', value: true };
const every = { op: 'every', path: '/items', where: avail };
const exists = { op: 'exists', path: '/items', where: { op: 'literal', value: true } };
const advisories = (when: unknown, strict = false) =>
  validatePack(enc.encode(JSON.stringify(packWith(when))), { draftFeatures: Q, strict }).diagnostics.filter(
    (d) => d.code === 'JPS-RFC0008-VACUOUS-EVERY',
  );

describe('the RFC 0008 vacuous-truth advisory', () => {
  it('warns when an every is the only positive condition of a rule, naming the non-vacuous idiom', () => {
    const [d, ...rest] = advisories(every);
    expect(rest).toEqual([]);
    expect(d?.severity).toBe('warning');
    expect(d?.pointer).toBe('/rules/0/when');
    expect(d?.message).toMatch(/"op":"all","conditions":\[\{"op":"exists"/);
  });
  it('sees through all and ignores negated conjuncts', () => {
    const [d] = advisories({ op: 'all', conditions: [{ op: 'not', condition: avail }, every] });
    expect(d?.pointer).toBe('/rules/0/when/conditions/1');
  });
  it('is silent for the non-vacuous idiom and for an every beside another positive condition', () => {
    expect(advisories({ op: 'all', conditions: [exists, every] })).toEqual([]);
    expect(advisories({ op: 'all', conditions: [avail, every] })).toEqual([]);
    expect(advisories({ op: 'any', conditions: [every, avail] })).toEqual([]);
  });
  it('stays a warning under strict validation, so the pack stays conformant', () => {
    const v = validatePack(enc.encode(JSON.stringify(packWith(every))), { draftFeatures: Q, strict: true });
    expect(v.conformant).toBe(true);
    expect(v.diagnostics.map((d) => d.code)).toContain('JPS-RFC0008-VACUOUS-EVERY');
  });
});
