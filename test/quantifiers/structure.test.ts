import { describe, expect, it } from 'vitest';
import { validatePack } from '../../core/pack/index.js';
import { packWith, Q } from './helpers.js';

const enc = new TextEncoder();
const ok = { op: 'fact', path: '/ok', operator: 'equals', value: true };
const ex = (where: unknown) => ({ op: 'exists', path: '/xs', where });
const uni = { op: 'uniform', path: '/xs', at: '/v' };
const check = (when: unknown, quantifiers = true) =>
  validatePack(enc.encode(JSON.stringify(packWith(when))), quantifiers ? { draftFeatures: Q } : {});

describe('RFC 0008 aggregate depth (schema tiers)', () => {
  it('accepts two sibling exists under an all inside one where (both at depth two)', () => {
    expect(check(ex({ op: 'all', conditions: [ex(ok), ex(ok)] })).class).toBe('valid');
  });
  it('refuses depth three reached through all, and through not: wrapping does not launder depth', () => {
    for (const wrap of [
      (c: unknown) => ({ op: 'all', conditions: [c] }),
      (c: unknown) => ({ op: 'not', condition: c }),
    ]) {
      const v = check(ex(wrap(ex(ex(ok)))));
      expect(v.class).toBe('structural');
      expect(v.diagnostics.some((d) => d.code === 'JPS-SCHEMA-CONDITION-OP' && /aggregate depth/.test(d.message))).toBe(
        true,
      );
    }
  });
  it('counts uniform as an aggregate: valid at depth two, invalid at depth three', () => {
    expect(check(ex(uni)).class).toBe('valid');
    expect(check(ex(ex(uni))).class).toBe('structural');
  });
  it('refuses a quantifier without the opt-in exactly like any unknown op', () => {
    const v = check(ex(ok), false);
    expect(v.class).toBe('structural');
    expect(v.diagnostics.map((d) => d.code)).toEqual(['JPS-SCHEMA-CONDITION-OP']);
  });
  it('refuses a quantifier in a 0.2.0-draft pack even with the opt-in: the historical contract never gains it', () => {
    const draft020 = (when: unknown) =>
      validatePack(enc.encode(JSON.stringify({ ...(packWith(when) as object), specVersion: '0.2.0-draft' })), {
        draftFeatures: Q,
      });
    expect(draft020(ok).class).toBe('valid');
    const v = draft020(ex(ok));
    expect(v.class).toBe('structural');
    expect(v.diagnostics.map((d) => d.code)).toEqual(['JPS-SCHEMA-CONDITION-OP']);
  });
  it('requires path and where, and admits no other member', () => {
    expect(check({ op: 'exists', path: '/xs' }).class).toBe('structural');
    expect(check({ ...ex(ok), at: '/v' }).class).toBe('structural');
    expect(check({ op: 'uniform', path: '/xs' }).class).toBe('structural');
    expect(check({ op: 'exists', path: 'xs', where: ok }).class).toBe('structural');
  });
  it('recurses the §3.3 evidence-present reference check into where', () => {
    const v = check(ex({ op: 'evidence-present', evidenceRequirement: 'nope' }));
    expect(v.class).toBe('semantic');
    expect(v.diagnostics[0]!.pointer).toBe('/rules/0/when/where/evidenceRequirement');
  });
  it('keeps specVersion 0.3.0 and records the enabled feature on the validated pack', () => {
    const v = check(ex(ok));
    expect(v.pack?.specVersion).toBe('0.3.0');
    expect(v.pack?.draftFeatures).toEqual(['rfc0008-quantifiers']);
  });
});
