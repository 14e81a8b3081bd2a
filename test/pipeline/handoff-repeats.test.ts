import { describe, expect, it } from 'vitest';
import { deliveriesOf, HandoffRepeats } from '../../core/pipeline/handoff-repeats.js';

describe('one consumer run’s repeats', () => {
  it('marks the first delivery of each handoff id first and every later one a repeat', () => {
    expect(deliveriesOf(['a', 'b', 'a', 'a', 'c', 'b'])).toEqual([
      'first',
      'first',
      'repeat',
      'repeat',
      'first',
      'repeat',
    ]);
  });

  it('keeps no memory between runs: a new run prints a handoff id again', () => {
    const one = new HandoffRepeats();
    expect([one.first('a'), one.first('a')]).toEqual([true, false]);
    expect(new HandoffRepeats().first('a')).toBe(true);
  });
});
