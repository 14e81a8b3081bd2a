import { describe, expect, it } from 'vitest';
import { Lru } from '../../core/admission/lru.js';

describe('the compiled-pack cache', () => {
  it('evicts the least recently used entry when full', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([1, undefined, 3]);
  });
});
