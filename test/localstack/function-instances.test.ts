import { describe, expect, it } from 'vitest';
import {
  FUNCTION_INSTANCES_ENV,
  FunctionInstancesError,
  concurrencyShare,
  DEFAULT_FUNCTION_INSTANCES,
  instancesFor,
  resolveFunctionInstances,
} from '../../localstack/function-instances.js';

describe('the function instance count', () => {
  it('is the option when given, else the environment variable, else the default', () => {
    expect(resolveFunctionInstances(3, { [FUNCTION_INSTANCES_ENV]: '5' })).toBe(3);
    expect(resolveFunctionInstances(undefined, { [FUNCTION_INSTANCES_ENV]: ' 5 ' })).toBe(5);
    expect(resolveFunctionInstances(undefined, { [FUNCTION_INSTANCES_ENV]: '' })).toBe(DEFAULT_FUNCTION_INSTANCES);
    expect(resolveFunctionInstances(undefined, {})).toBe(1);
  });

  it('refuses a count that is not a whole number from 1 to 16 with a typed error', () => {
    for (const raw of ['0', '-1', '1.5', 'two', '17', '1e1'])
      expect(() => resolveFunctionInstances(undefined, { [FUNCTION_INSTANCES_ENV]: raw })).toThrow(
        FunctionInstancesError,
      );
    for (const n of [0, 17, 1.5, Number.NaN]) expect(() => resolveFunctionInstances(n, {})).toThrow(/1–16/);
    const e = (() => {
      try {
        resolveFunctionInstances(undefined, { [FUNCTION_INSTANCES_ENV]: 'x' });
      } catch (err) {
        return err as FunctionInstancesError;
      }
    })();
    expect(e?.code).toBe('function-instances-invalid');
  });
});

describe("an instance's share of an event source's concurrency", () => {
  it('adds up to the template total over the instances, as evenly as whole numbers allow', () => {
    for (const total of [1, 2, 5, 19, 20, 1000])
      for (let count = 1; count <= 16; count++) {
        const shares = Array.from({ length: count }, (_, i) => concurrencyShare(total, i, count));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      }
    expect([0, 1, 2].map((i) => concurrencyShare(20, i, 3))).toEqual([7, 7, 6]);
    expect([0, 1].map((i) => concurrencyShare(20, i, 2))).toEqual([10, 10]);
  });

  it('never starts more instances than the largest concurrency of the sources, nor fewer than one', () => {
    expect(instancesFor(4, [2])).toBe(2);
    expect(instancesFor(4, [2, 20])).toBe(4);
    expect(instancesFor(2, [20])).toBe(2);
    expect(instancesFor(3, [])).toBe(1);
    expect(instancesFor(1, [20])).toBe(1);
  });
});
