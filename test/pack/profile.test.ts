import { describe, expect, test } from 'vitest';
import { PackCodes as C } from '../../core/pack/codes.js';
import { SUPPORTED_PROFILES } from '../../core/pack/spec-versions.js';
import { load, validate } from './fixtures/index.js';

describe('§4.1 profile negotiation', () => {
  test('this reader supports base and extended', () => {
    expect([...SUPPORTED_PROFILES]).toEqual(['base', 'extended']);
  });

  test('an absent profile selects base without inserting it into the document', () => {
    const r = validate(load('minimal-0.3.0'));
    expect(r.pack?.profile).toBe('base');
    expect(r.pack?.document.members.has('profile')).toBe(false);
  });

  test('an explicit extended profile is selected and kept', () => {
    const p = load('minimal-0.3.0');
    p.profile = 'extended';
    const r = validate(p);
    expect(r.pack?.profile).toBe('extended');
    expect(r.pack?.plain.profile).toBe('extended');
  });

  for (const value of ['Base', 'EXTENDED', 'premium', '', ' base', null, 1, true, ['base'], { name: 'base' }]) {
    test(`the profile ${JSON.stringify(value)} is a structural refusal with the schema's own profile diagnostic, alone`, () => {
      const p = load('minimal-0.3.0');
      p.profile = value;
      p.title = ''; // another structural violation: negotiation runs first, so it is not reported
      const r = validate(p);
      expect(r).toMatchObject({ conformant: false, class: 'structural' });
      expect(r.diagnostics).toHaveLength(1);
      expect(r.diagnostics[0]).toMatchObject({
        code: C.SCHEMA_ENUM,
        pointer: '/profile',
        severity: 'error',
        allowed: ['base', 'extended'],
      });
    });
  }

  test('the negotiation refusal equals the diagnostic the schema itself gives for profile', async () => {
    const { validatorFor } = await import('../../core/pack/schemas.js');
    const { mapSchemaErrors } = await import('../../core/pack/schema-diagnostics.js');
    const p = load('minimal-0.3.0');
    p.profile = 'premium';
    const v = validatorFor('0.3.0', 'base');
    expect(v(p)).toBe(false);
    expect(validate(p).diagnostics).toEqual(mapSchemaErrors(v.errors ?? [], p));
  });

  test('a reader without extended refuses an extended document with exactly one profile-unsupported diagnostic', () => {
    const p = load('extended-16-routes-0.3.0');
    p.title = ''; // must not be reported: negotiation precedes schema interpretation
    const r = validate(p, { supportedProfiles: ['base'] });
    expect(r).toMatchObject({ conformant: false, class: 'structural' });
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'profile-unsupported', profile: 'extended', severity: 'error' });
    expect(C.PROFILE_UNSUPPORTED).toBe('profile-unsupported');
  });

  test('the profile-unsupported message carries nothing derived from the input', () => {
    const a = load('extended-16-routes-0.3.0');
    const b = load('minimal-0.3.0');
    b.profile = 'extended';
    b.title = 'Something else entirely';
    const ma = validate(a, { supportedProfiles: ['base'] }).diagnostics[0]?.message;
    const mb = validate(b, { supportedProfiles: ['base'] }).diagnostics[0]?.message;
    expect(ma).toBe(mb);
  });

  test('the same rule applies to implicit base: a reader without base refuses a document without profile', () => {
    const r = validate(load('minimal-0.3.0'), { supportedProfiles: ['extended'] });
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'profile-unsupported', profile: 'base' })]);
    expect(r.diagnostics[0]?.pointer).toBeUndefined();
  });

  test('an explicit base is refused by an extended-only reader with a pointer to the declaration', () => {
    const p = load('minimal-0.3.0');
    p.profile = 'base';
    expect(validate(p, { supportedProfiles: ['extended'] }).diagnostics[0]).toMatchObject({
      code: 'profile-unsupported',
      profile: 'base',
      pointer: '/profile',
    });
  });

  test('malformed JSON keeps its syntax refusal even when it declares an unsupported profile', () => {
    const text = JSON.stringify(load('extended-16-routes-0.3.0')).slice(0, -1);
    const r = validate(text, { supportedProfiles: ['base'] });
    expect(r.class).toBe('carrier');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['syntax']);
  });

  test('an extended document is validated with the extended ceilings, not the base schema alone', () => {
    const p = load('extended-16-routes-0.3.0');
    expect(validate(p).conformant).toBe(true);
    p.profile = 'base';
    expect(validate(p).diagnostics.map((d) => d.code)).toEqual([C.SCHEMA_TOO_MANY_ITEMS]);
  });

  test('0.2.0-draft has no profiles: every 0.2.0-draft pack is implicitly base', () => {
    expect(validate(load('minimal-0.2.0-draft')).pack?.profile).toBe('base');
  });
});
