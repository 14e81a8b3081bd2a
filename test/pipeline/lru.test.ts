import { describe, expect, it } from 'vitest';
import { selectLog } from '../../core/pipeline/log-select.js';
import { Lru } from '../../core/pipeline/lru.js';

describe('log selection', () => {
  it('sends every delivery of one request id to the same log', () => {
    const logs = ['dev-0', 'dev-1', 'dev-2', 'dev-3'];
    expect(selectLog('req-42', logs)).toBe(selectLog('req-42', [...logs]));
  });

  it('spreads 4,000 request ids over four logs within 10% of even', () => {
    const logs = ['a', 'b', 'c', 'd'];
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const l = selectLog(`req-${i}`, logs);
      counts.set(l, (counts.get(l) ?? 0) + 1);
    }
    for (const l of logs) expect(Math.abs((counts.get(l) ?? 0) - 1000)).toBeLessThan(100);
  });

  it('refuses an empty log list', () => {
    expect(() => selectLog('x', [])).toThrow(RangeError);
  });
});

describe('the compiled-pack cache', () => {
  it('evicts the least recently used entry when full', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect([lru.has('a'), lru.has('b'), lru.has('c')]).toEqual([true, false, true]);
    expect(lru.size).toBe(2);
  });
});
