import { describe, expect, it } from 'vitest';
import { HandoffRepeats } from '../../core/pipeline/handoff-repeats.js';
import { deliveriesOf } from './handoff-fixtures.js';
import {
  HANDOFFS_SEEN_FORMAT,
  MAX_REMEMBERED,
  readHandoffsSeen,
  serializeHandoffsSeen,
} from '../../core/pipeline/handoffs-seen.js';

describe('a consumer’s repeats', () => {
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

  it('starts from the ids an earlier run remembered, and remembers them with its own, oldest first', () => {
    const one = new HandoffRepeats();
    expect([one.first('a'), one.first('b'), one.first('a')]).toEqual([true, true, false]);
    expect(new HandoffRepeats().first('a')).toBe(true);
    const next = new HandoffRepeats(one.remembered());
    expect([next.first('a'), next.first('c'), next.first('c')]).toEqual([false, true, false]);
    expect(next.remembered()).toEqual(['a', 'b', 'c']);
  });
});

const id = (n: number): string => `sha256:${n.toString(16).padStart(64, '0')}`;
const bytes = (x: unknown): Uint8Array => new TextEncoder().encode(typeof x === 'string' ? x : JSON.stringify(x));

describe('the handoff ids a consumer keeps between runs', () => {
  it('reads back what it wrote, each queue’s list apart and the queues sorted, keeping only the newest MAX_REMEMBERED', () => {
    const text = serializeHandoffsSeen({ 'q-b': [id(1)] }, 'q-a', [id(2), id(3)]);
    const read = readHandoffsSeen(bytes(text));
    expect(read.ok && read.value).toEqual({ 'q-a': [id(2), id(3)], 'q-b': [id(1)] });
    // The file names its queues in sorted order, whatever order they were added in.
    expect(Object.keys((JSON.parse(text) as { queues: object }).queues)).toEqual(['q-a', 'q-b']);
    const many = Array.from({ length: MAX_REMEMBERED + 2 }, (_, i) => id(i));
    const kept = readHandoffsSeen(bytes(serializeHandoffsSeen({}, 'q', many)));
    expect(kept.ok && kept.value.q).toEqual(many.slice(2));
  });

  it('refuses a file that is not the format, rather than forgetting silently', () => {
    for (const bad of [
      'not json',
      [],
      { format: HANDOFFS_SEEN_FORMAT },
      { format: 'docket.handoffs-seen/2', queues: {} },
      { format: HANDOFFS_SEEN_FORMAT, queues: { q: ['a'] } },
      { format: HANDOFFS_SEEN_FORMAT, queues: { q: id(1) } },
      { format: HANDOFFS_SEEN_FORMAT, queues: {}, extra: 1 },
    ]) {
      const r = readHandoffsSeen(bytes(bad));
      expect(r.ok ? 'ok' : r.error.code, JSON.stringify(bad)).toBe('handoffs-seen-unreadable');
    }
  });
});
