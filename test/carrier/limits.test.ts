import { describe, expect, it } from 'vitest';
import { DEFAULT_CARRIER_LIMITS, resolveLimits } from '../../core/carrier/index.js';
import { CARRIER_LIMIT_CEILINGS, CarrierLimitsError } from '../../core/carrier/limits.js';
import { accept, refuse, utf8 } from './helpers.js';

const nestedArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
const array = (n: number): string => `[${Array.from({ length: n }, () => '0').join(',')}]`;
const object = (n: number): string => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`;

describe('default carrier limits', () => {
  it('are at least RFC 0008 mandated minimum domain on every dimension', () => {
    const mandated = {
      documentBytes: 2_097_152,
      depth: 32,
      stringBytes: 1_048_576,
      numberBytes: 4_096,
      collectionSize: 10_000,
    };
    for (const [name, minimum] of Object.entries(mandated))
      expect(DEFAULT_CARRIER_LIMITS[name as keyof typeof mandated]).toBeGreaterThanOrEqual(minimum);
  });

  it('are the documented values', () => {
    expect(DEFAULT_CARRIER_LIMITS).toEqual({
      documentBytes: 2_097_152,
      depth: 64,
      stringBytes: 1_048_576,
      numberBytes: 4_096,
      collectionSize: 10_000,
    });
  });
});

describe('documentBytes', () => {
  it('accepts a document of exactly 2,097,152 bytes and refuses one more byte', () => {
    const at = '1' + ' '.repeat(2_097_151);
    expect(utf8(at).length).toBe(2_097_152);
    expect(accept(at)).toMatchObject({ kind: 'number' });
    expect(refuse(at + ' ')).toMatchObject({ code: 'limit-document-bytes', offset: 2_097_152 });
  });

  it('is decided before UTF-8 validation, so an oversized input is never read', () => {
    const input = new Uint8Array(11).fill(0xff);
    expect(refuse(input, { limits: { documentBytes: 10 } }).code).toBe('limit-document-bytes');
    expect(refuse(input, { limits: { documentBytes: 11 } }).code).toBe('invalid-utf8');
  });
});

describe('depth', () => {
  it('accepts 64 nested arrays and refuses 65 by default', () => {
    expect(accept(nestedArrays(64)).kind).toBe('array');
    expect(refuse(nestedArrays(65))).toMatchObject({ code: 'limit-depth', offset: 64 });
  });

  it('accepts 64 nested objects and refuses 65 by default', () => {
    expect(accept(nestedObjects(64)).kind).toBe('object');
    expect(refuse(nestedObjects(65)).code).toBe('limit-depth');
  });

  it('counts mixed containers and gives a scalar root depth 0', () => {
    expect(accept('[{"a":[1]}]', { limits: { depth: 3 } }).kind).toBe('array');
    expect(refuse('[{"a":[[1]]}]', { limits: { depth: 3 } }).code).toBe('limit-depth');
    expect(accept('"deep"', { limits: { depth: 1 } }).kind).toBe('string');
  });

  it('refuses a deep document at its configured ceiling of 1,024 without exhausting the stack', () => {
    expect(accept(nestedArrays(1024), { limits: { depth: 1024 } }).kind).toBe('array');
    expect(refuse(nestedArrays(1025), { limits: { depth: 1024 } }).code).toBe('limit-depth');
    expect(refuse(nestedArrays(100_000)).code).toBe('limit-depth');
  });
});

describe('stringBytes', () => {
  it('accepts a 1,048,576-byte string value and refuses 1,048,577 by default', () => {
    expect(accept(`"${'x'.repeat(1_048_576)}"`)).toMatchObject({ v: 1 + 1_048_578 });
    expect(refuse(`"${'x'.repeat(1_048_577)}"`)).toMatchObject({ code: 'limit-string-bytes', offset: 0 });
  });

  it('counts UTF-8 bytes of the value, not UTF-16 units', () => {
    const limits = { stringBytes: 4 };
    expect(accept('"éé"', { limits }).kind).toBe('string');
    expect(refuse('"ééa"', { limits }).code).toBe('limit-string-bytes');
    expect(accept('"😀"', { limits }).kind).toBe('string');
    expect(refuse('"😀a"', { limits }).code).toBe('limit-string-bytes');
  });

  it('counts an escape as the bytes of the character it denotes', () => {
    const limits = { stringBytes: 2 };
    expect(accept('"\\u00e9"', { limits }).kind).toBe('string'); // é is 2 bytes although 6 are written
    expect(refuse('"\\u20ac"', { limits }).code).toBe('limit-string-bytes'); // € is 3
    expect(accept('"\\n\\t"', { limits }).kind).toBe('string');
    expect(refuse('"\\n\\t\\r"', { limits }).code).toBe('limit-string-bytes');
  });

  it('applies to member names too, at the name offset', () => {
    expect(refuse('{"abc":1}', { limits: { stringBytes: 2 } })).toMatchObject({
      code: 'limit-string-bytes',
      offset: 1,
    });
    expect(accept('{"ab":"cd"}', { limits: { stringBytes: 2 } }).kind).toBe('object');
  });
});

describe('numberBytes', () => {
  it('accepts a 4,096-byte number token and refuses 4,097 by default', () => {
    expect(accept('9'.repeat(4096))).toMatchObject({ kind: 'number', v: 4097 });
    expect(refuse('9'.repeat(4097))).toMatchObject({ code: 'limit-number-bytes', offset: 0 });
  });

  it('counts the sign, point and exponent as written', () => {
    const limits = { numberBytes: 6 };
    expect(accept('-1.5e+1', { limits: { numberBytes: 7 } }).kind).toBe('number');
    expect(refuse('-1.5e+1', { limits }).code).toBe('limit-number-bytes');
    expect(refuse('[1,-1.5e+1]', { limits })).toMatchObject({ code: 'limit-number-bytes', offset: 3 });
  });
});

describe('collectionSize', () => {
  it('accepts a 10,000-element array and refuses 10,001 by default', () => {
    expect(accept(array(10_000))).toMatchObject({ kind: 'array' });
    expect(refuse(array(10_001)).code).toBe('limit-collection-size');
  });

  it('accepts a 10,000-member object and refuses 10,001 by default', () => {
    expect(accept(object(10_000))).toMatchObject({ kind: 'object' });
    expect(refuse(object(10_001)).code).toBe('limit-collection-size');
  });

  it('refuses at the first element past the limit and counts each collection separately', () => {
    const limits = { collectionSize: 2 };
    expect(refuse('[1,2,3]', { limits })).toMatchObject({ code: 'limit-collection-size', offset: 5 });
    expect(accept('[[1,2],[3,4]]', { limits }).kind).toBe('array');
    expect(refuse('{"a":1,"b":2,"c":3}', { limits })).toMatchObject({ code: 'limit-collection-size', offset: 13 });
  });

  it('still reports a trailing comma at the limit as syntax', () => {
    expect(refuse('[1,2,]', { limits: { collectionSize: 2 } }).code).toBe('syntax');
  });
});

describe('resolveLimits', () => {
  it('merges partial overrides onto the defaults', () => {
    expect(resolveLimits({ depth: 10 })).toEqual({ ...DEFAULT_CARRIER_LIMITS, depth: 10 });
    expect(resolveLimits()).toBe(DEFAULT_CARRIER_LIMITS);
  });

  it('throws CarrierLimitsError for a misconfiguration (zero, fraction, NaN, above the ceiling)', () => {
    for (const bad of [
      { depth: 0 },
      { depth: 1.5 },
      { stringBytes: Number.NaN },
      { depth: CARRIER_LIMIT_CEILINGS.depth + 1 },
      { collectionSize: -1 },
    ]) {
      expect(() => resolveLimits(bad)).toThrow(CarrierLimitsError);
    }
  });

  it('admits a configuration below the mandated minimum (tests and tight deployments need one)', () => {
    expect(resolveLimits({ depth: 31 }).depth).toBe(31);
  });
});
