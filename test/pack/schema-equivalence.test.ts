import { describe, expect, test } from 'vitest';
import { validatorFor } from '../../core/pack/schemas.js';
import schema030 from '../../schema/judgment-pack-core.schema.json' with { type: 'json' };
import { newPackAjv } from '../../core/pack/schema-compiler.js';
import { effectiveSchema } from '../../core/pack/effective-schema.js';
import type { Profile, SpecVersion } from '../../core/pack/types.js';
import { fact, load, type Pack } from './fixtures/index.js';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

/** A validator of the schema exactly as published (condition oneOf untouched). */
const literalValidatorFor = (specVersion: SpecVersion, profile: Profile, quantifiers = false) =>
  newPackAjv().compile(effectiveSchema(specVersion, profile, false, quantifiers));

/** Conditions covering every branch, valid and invalid, including ones several branches half-match. */
const CONDITIONS: unknown[] = [
  { op: 'literal', value: true },
  { op: 'literal', value: 'yes' },
  { op: 'literal' },
  { op: 'all', conditions: [{ op: 'literal', value: false }] },
  { op: 'any', conditions: [] },
  { op: 'any', conditions: [{ op: 'nope' }] },
  { op: 'all', condition: { op: 'literal', value: true } },
  { op: 'not', condition: { op: 'literal', value: true } },
  { op: 'not', conditions: [{ op: 'literal', value: true }] },
  fact('/a', 'equals', { x: [1, null] }),
  fact('/a', 'in', []),
  fact('/a', 'in', ['x']),
  fact('/a', 'less-than', '1.5'),
  fact('/a', 'less-than', 1.5),
  fact('/a', 'less-than', '1e3'),
  fact('a', 'equals', 1),
  { op: 'fact', path: '/a', operator: 'equals' },
  { op: 'fact', path: '/a', operator: 'equals', value: 1, extra: 1 },
  { op: 'evidence-present', evidenceRequirement: 'doc' },
  { op: 'evidence-present', evidenceRequirement: 'Doc' },
  { op: 'evidence-present', value: true },
  { op: 'literal', value: true, conditions: [] },
  { op: 7, value: true },
  { value: true },
  [],
  'literal',
  null,
];

describe('the discriminated condition form accepts exactly what the published oneOf accepts', () => {
  for (const specVersion of ['0.3.0', '0.2.0-draft'] as const) {
    const discriminated = validatorFor(specVersion, 'base');
    const literal = literalValidatorFor(specVersion, 'base');
    CONDITIONS.forEach((c, i) => {
      test(`${specVersion}: condition #${i} ${JSON.stringify(c)} gets the same verdict from both forms, at every position`, () => {
        for (const place of ['rule', 'nested', 'applicability'] as const) {
          const p: Pack = load(specVersion === '0.3.0' ? 'minimal-0.3.0' : 'minimal-0.2.0-draft');
          if (place === 'rule') p.rules[0].when = c;
          if (place === 'nested')
            p.rules[0].when = {
              op: 'any',
              conditions: [
                { op: 'literal', value: true },
                { op: 'not', condition: c },
              ],
            };
          if (place === 'applicability') p.applicability = c;
          expect(discriminated(p), place).toBe(literal(p));
        }
      });
    });
  }
});

/** RFC 0008 draft shapes: depth one to three, wrapped and bare, valid and invalid. */
const ok = { op: 'literal', value: true };
const ex = (where: unknown) => ({ op: 'exists', path: '/xs', where });
const QUANTIFIED: unknown[] = [
  ex(ok),
  { op: 'every', path: '/xs', where: ex(ok) },
  ex({ op: 'all', conditions: [ex(ok), { op: 'uniform', path: '/ys', at: '' }] }),
  ex({ op: 'not', condition: ex(ex(ok)) }),
  ex(ex({ op: 'uniform', path: '/a', at: '/b' })),
  { op: 'uniform', path: '/xs', at: '/v', where: ok },
  { op: 'exists', path: '/xs' },
  { op: 'exists', path: 'xs', where: ok },
];

describe('with the RFC 0008 tiers, the discriminated form accepts exactly what the tiered oneOf accepts', () => {
  const discriminated = validatorFor('0.3.0', 'base', true);
  const literal = literalValidatorFor('0.3.0', 'base', true);
  [...CONDITIONS, ...QUANTIFIED].forEach((c, i) => {
    test(`condition #${i} ${JSON.stringify(c)} gets the same verdict from both forms`, () => {
      const p: Pack = load('minimal-0.3.0');
      p.rules[0].when = { op: 'any', conditions: [ok, { op: 'not', condition: c }] };
      expect(discriminated(p)).toBe(literal(p));
    });
  });
  test('the verdicts differ where the depth bound says so', () => {
    const verdict = (c: unknown) => {
      const p: Pack = load('minimal-0.3.0');
      p.rules[0].when = c;
      return literal(p);
    };
    expect([QUANTIFIED.slice(0, 3).map(verdict), QUANTIFIED.slice(3).map(verdict)]).toEqual([
      [true, true, true],
      [false, false, false, false, false],
    ]);
  });
});

describe('the schema files', () => {
  test('the 0.2.0-draft schema is the published reference, byte for byte', () => {
    const ours = readFileSync(new URL('../../schema/judgment-pack-core-0.2.0-draft.schema.json', import.meta.url));
    // SHA-256 of the published 0.2.0-draft schema, as pinned in docs/spec-references.md (so a clean clone checks
    // the repository's copy against the text a citation means).
    expect(createHash('sha256').update(ours).digest('hex')).toBe(
      '847910902fa202d9fb3a97062071b532f11649031c9dad32490bf191dca5b3b5',
    );
  });

  test('the 0.3.0 schema declares profile with base as an annotation default and keeps the base route ceiling', () => {
    const s = schema030 as unknown as Pack;
    expect(s.properties.specVersion).toEqual({ const: '0.3.0' });
    expect(s.properties.profile).toMatchObject({ enum: ['base', 'extended'], default: 'base' });
    expect(s.$defs.escalation.properties.routes).toMatchObject({ minItems: 1, maxItems: 8 });
    expect(s.$defs.route.additionalProperties).toBe(false);
  });

  test('validation never inserts the default profile into the instance', () => {
    const p = load('minimal-0.3.0');
    expect(validatorFor('0.3.0', 'base')(p)).toBe(true);
    expect(Object.hasOwn(p, 'profile')).toBe(false);
  });
});
