import { describe, expect, it } from 'vitest';
import { selectLog } from '../../core/ledger/write/log-selection.js';

const ids = Array.from({ length: 64 }, (_, i) => `r-${i}`);

describe('log selection (docs/adr/0053-log-selection.md)', () => {
  it('reads the configured ids deduplicated and sorted, so listing order does not matter', () => {
    const a = ids.map((id) => selectLog(id, ['c', 'a', 'b']));
    expect(ids.map((id) => selectLog(id, ['a', 'b', 'c', 'a']))).toEqual(a);
    expect(new Set(a)).toEqual(new Set(['a', 'b', 'c'])); // every log gets requests
  });

  it('gives a request the same log every time', () => {
    expect(ids.map((id) => selectLog(id, ['a', 'b']))).toEqual(ids.map((id) => selectLog(id, ['b', 'a'])));
    expect(selectLog('x', ['only'])).toBe('only');
  });

  it('refuses no logs and an invalid log id', () => {
    expect(() => selectLog('x', [])).toThrow(RangeError);
    expect(() => selectLog('x', ['a/b'])).toThrow(RangeError);
  });
});
