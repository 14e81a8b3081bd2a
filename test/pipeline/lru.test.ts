import { describe, expect, it } from 'vitest';
import { Lru } from '../../core/admission/lru.js';

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

describe('the per-log append lock', () => {
  it('runs tasks of one key one at a time in order and tasks of different keys together', async () => {
    const { KeyedMutex } = await import('../../core/pipeline/ledger-writer.js');
    const m = new KeyedMutex();
    const log: string[] = [];
    let active = 0;
    let maxActiveA = 0;
    const task = (key: string, name: string, ms: number) =>
      m.run(key, async () => {
        if (key === 'a') maxActiveA = Math.max(maxActiveA, ++active);
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`end ${name}`);
        if (key === 'a') active -= 1;
        if (name === 'a2') throw new Error('a2 fails');
        return name;
      });
    const results = await Promise.allSettled([
      task('a', 'a1', 20),
      task('a', 'a2', 5),
      task('b', 'b1', 1),
      task('a', 'a3', 1),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(maxActiveA).toBe(1);
    expect(log.filter((l) => / a[0-9]/.test(l))).toEqual([
      'start a1',
      'end a1',
      'start a2',
      'end a2',
      'start a3',
      'end a3',
    ]);
    expect(log.indexOf('end b1')).toBeLessThan(log.indexOf('end a1'));
  });
});
