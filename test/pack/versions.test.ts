import { describe, expect, test } from 'vitest';
import { validatePack } from '../../core/pack/index.js';
import { PackCodes } from '../../core/pack/codes.js';
import { SUPPORTED_SPEC_VERSIONS } from '../../core/pack/spec-versions.js';
import { bytes, findings, fixtureBytes, load, validate } from './fixtures/index.js';

const LONE = '\\ud800'; // a lone surrogate escape, as JSON text

describe('specVersion dispatch (§11)', () => {
  test('both supported selectors are listed', () => {
    expect([...SUPPORTED_SPEC_VERSIONS]).toEqual(['0.3.0', '0.2.0-draft']);
  });

  for (const name of [
    'minimal-0.3.0',
    'rich-0.3.0',
    'minimal-0.2.0-draft',
    'rich-0.2.0-draft',
    'extended-16-routes-0.3.0',
  ] as const) {
    test(`the ${name} fixture is conformant with no diagnostics`, () => {
      const r = validatePack(fixtureBytes(name));
      expect(r.diagnostics).toEqual([]);
      expect(r).toMatchObject({ conformant: true, class: 'valid' });
      expect(r.pack?.specVersion).toBe(name.endsWith('0.2.0-draft') ? '0.2.0-draft' : '0.3.0');
    });
  }

  test('a validated pack keeps the exact bytes, the tree and the selected profile', () => {
    const b = fixtureBytes('minimal-0.3.0');
    const r = validatePack(b);
    expect(r.pack?.bytes).toBe(b);
    expect(r.pack?.profile).toBe('base');
    expect(r.pack?.document.kind).toBe('object');
    expect(r.pack?.plain.title).toBe('Minimal');
  });

  for (const selector of [
    '0.3.0-draft',
    '0.1.0-draft',
    '0.3',
    '0.3.0 ',
    'v0.3.0',
    '',
    '__proto__',
    'constructor',
    '0.2.0',
  ]) {
    test(`the unknown selector ${JSON.stringify(selector)} is a structural refusal`, () => {
      const p = load('minimal-0.3.0');
      p.specVersion = selector;
      const r = validate(p);
      expect(r).toMatchObject({ conformant: false, class: 'structural' });
      expect(findings(r)).toEqual([{ code: PackCodes.SPEC_VERSION_UNSUPPORTED, pointer: '/specVersion' }]);
      expect(r.pack).toBeUndefined();
    });
  }

  test('a missing selector is a structural refusal naming the member', () => {
    const p = load('minimal-0.3.0');
    delete p.specVersion;
    expect(findings(validate(p))).toEqual([{ code: PackCodes.SPEC_VERSION_MISSING, pointer: '' }]);
  });

  for (const value of [3, null, true, ['0.3.0'], { v: '0.3.0' }]) {
    test(`a ${JSON.stringify(value)} selector is refused as not a string`, () => {
      const p = load('minimal-0.3.0');
      p.specVersion = value;
      const r = validate(p);
      expect(r.class).toBe('structural');
      expect(findings(r)).toEqual([{ code: PackCodes.SPEC_VERSION_NOT_STRING, pointer: '/specVersion' }]);
    });
  }

  for (const root of ['[]', '"0.3.0"', '3', 'null', '[{"specVersion":"0.3.0"}]']) {
    test(`the non-object root ${root} is a structural refusal`, () => {
      const r = validatePack(bytes(root));
      expect(r.class).toBe('structural');
      expect(findings(r)).toEqual([{ code: PackCodes.ROOT_NOT_OBJECT, pointer: '' }]);
    });
  }

  test('an escaped selector is read after unescaping', () => {
    const text = JSON.stringify(load('minimal-0.3.0')).replace('"0.3.0"', '"0.3\\u002e0"');
    expect(validatePack(bytes(text)).conformant).toBe(true);
  });

  test('a selector written after a large nested member is still found', () => {
    const p = load('minimal-0.3.0');
    const { specVersion, ...rest } = p;
    const text = JSON.stringify({
      ...rest,
      extensions: { 'com.example.big': { deep: [[[['x']]]], s: 'a"}]'.repeat(1000) } },
      specVersion,
    });
    expect(validatePack(bytes(text)).conformant).toBe(true);
  });
});

describe('the carrier is chosen by the selector (§2.1, §11)', () => {
  test('a lone surrogate escape in a 0.3.0 title is a carrier refusal', () => {
    const text = JSON.stringify(load('minimal-0.3.0')).replace('"Minimal"', `"Min${LONE}imal"`);
    const r = validatePack(bytes(text));
    expect(r).toMatchObject({ conformant: false, class: 'carrier' });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['lone-surrogate']);
  });

  test('a lone surrogate escape in a 0.2.0-draft title is accepted, as its published carrier did', () => {
    const text = JSON.stringify(load('minimal-0.2.0-draft')).replace('"Minimal"', `"Min${LONE}imal"`);
    const r = validatePack(bytes(text));
    expect(r.conformant).toBe(true);
    expect(r.pack?.plain.title).toBe('Min\ud800imal');
  });

  test('replacing only the selector of a 0.2.0-draft pack with a lone surrogate does not make it 0.3.0 conformant', () => {
    const text = JSON.stringify(load('minimal-0.2.0-draft'))
      .replace('"Minimal"', `"Min${LONE}imal"`)
      .replace('0.2.0-draft', '0.3.0');
    expect(validatePack(bytes(text)).class).toBe('carrier');
  });

  test('a lone surrogate under an unknown selector is refused for its selector, not its carrier', () => {
    const text = JSON.stringify({ ...load('minimal-0.3.0'), specVersion: '0.1.0-draft' }).replace(
      '"Minimal"',
      `"${LONE}"`,
    );
    expect(findings(validatePack(bytes(text)))).toEqual([
      { code: PackCodes.SPEC_VERSION_UNSUPPORTED, pointer: '/specVersion' },
    ]);
  });

  test('malformed JSON keeps its syntax refusal even when the selector is readable', () => {
    const text = JSON.stringify(load('minimal-0.3.0')).replace('"rules":[', '"rules":[,');
    const r = validatePack(bytes(text));
    expect(r.class).toBe('carrier');
    expect(r.diagnostics[0]?.code).toBe('syntax');
  });

  test('malformed JSON with an unknown selector is a carrier refusal first', () => {
    const r = validatePack(bytes('{"specVersion":"9.9.9","title":}'));
    expect(r.class).toBe('carrier');
    expect(r.diagnostics[0]?.code).toBe('syntax');
  });

  test('a repeated specVersion member is a carrier refusal: duplicate-member', () => {
    const text = '{"specVersion":"0.3.0",' + JSON.stringify(load('minimal-0.3.0')).slice(1);
    const r = validatePack(bytes(text));
    expect(r.class).toBe('carrier');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['duplicate-member']);
  });

  test('a duplicate member deep inside a 0.3.0 pack is a carrier refusal', () => {
    const text = JSON.stringify(load('minimal-0.3.0')).replace('"label":"Yes"', '"label":"Yes","label":"Oui"');
    expect(validatePack(bytes(text)).diagnostics.map((d) => d.code)).toEqual(['duplicate-member']);
  });

  for (const [label, input, code] of [
    ['empty input', '', 'empty-input'],
    ['trailing data', JSON.stringify({ specVersion: '0.3.0' }) + ' x', 'trailing-data'],
    ['a truncated document', JSON.stringify({ specVersion: '0.3.0', title: 'x' }).slice(0, -3), 'syntax'],
  ] as const) {
    test(`${label} is refused by the carrier with ${code}`, () => {
      const r = validatePack(bytes(input));
      expect(r).toMatchObject({ conformant: false, class: 'carrier' });
      expect(r.diagnostics.map((d) => d.code)).toEqual([code]);
    });
  }

  test('invalid UTF-8 is refused by the carrier, never repaired', () => {
    const b = bytes(JSON.stringify(load('minimal-0.3.0')));
    const i = b.indexOf('M'.charCodeAt(0));
    b[i] = 0xff;
    expect(validatePack(b).diagnostics.map((d) => d.code)).toEqual(['invalid-utf8']);
  });

  test('carrier limits are applied and reported with their own code', () => {
    const r = validatePack(fixtureBytes('minimal-0.3.0'), { limits: { documentBytes: 100 } });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['limit-document-bytes']);
    const deep = load('minimal-0.3.0');
    let c: unknown = { op: 'literal', value: true };
    for (let i = 0; i < 40; i++) c = { op: 'not', condition: c };
    deep.rules[0].when = c;
    expect(validate(deep).conformant).toBe(true);
    expect(validate(deep, { limits: { depth: 20 } }).diagnostics.map((d) => d.code)).toEqual(['limit-depth']);
  });
});
