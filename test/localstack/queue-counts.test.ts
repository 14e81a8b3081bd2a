import { describe, expect, it } from 'vitest';
import { formatQueueCounts } from '../../localstack/queue-counts.js';

describe('the queue counts a stop and a status print', () => {
  it('list each non-empty queue with everything still on it, and sum up the empty ones', () => {
    const text = formatQueueCounts([
      { queue: 'docket-local-intake', waiting: 2410, inFlight: 10, delayed: 0 },
      { queue: 'docket-local-intake-dlq', waiting: 3, inFlight: 0, delayed: 1 },
      { queue: 'docket-local-unrouted', waiting: 0, inFlight: 0, delayed: 0 },
    ]);
    expect(text).toBe(
      '  docket-local-intake      2420 waiting (10 received and not yet deleted)\n' +
        '  docket-local-intake-dlq  4 waiting (1 delayed)\n' +
        '  other queues: empty\n',
    );
  });

  it('say so when every queue is empty', () => {
    expect(
      formatQueueCounts([
        { queue: 'a', waiting: 0, inFlight: 0, delayed: 0 },
        { queue: 'b', waiting: 0, inFlight: 0, delayed: 0 },
      ]),
    ).toBe('  all 2 queues: empty\n');
  });
});
