import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { nextCheckpoint, run as receipt } from '../../cli/commands/receipt.js';
import { run as verifyReceipt } from '../../cli/commands/verify-receipt.js';

const NOW = Date.parse('2026-12-03T12:10:00Z');

describe('docket receipt: when the next scheduled checkpoint is due', () => {
  it('is the newest checkpoint time plus the rate, in the future or overdue', () => {
    expect(nextCheckpoint('2026-12-03T12:00:00Z', 'rate(15 minutes)', NOW)).toContain('is due at 2026-12-03T12:15:00Z');
    expect(nextCheckpoint('2026-12-03T11:00:00Z', 'rate(1 hour)', NOW)).toContain(
      'was due at 2026-12-03T12:00:00Z and is overdue',
    );
  });

  it('names the schedule itself when it is a cron expression or the log was never checkpointed', () => {
    expect(nextCheckpoint('2026-12-03T12:00:00Z', 'cron(0 * * * ? *)', NOW)).toContain('schedule cron(0 * * * ? *)');
    expect(nextCheckpoint(null, 'rate(15 minutes)', NOW)).toContain('has not checkpointed this log yet');
  });

  it('refuses a missing request id and a malformed schedule as usage errors', async () => {
    expect(await receipt([], memoryIo())).toBe(64);
    expect(await receipt(['r-1', '--schedule', 'every minute'], memoryIo())).toBe(64);
    expect(await receipt(['r-1', '--key', 'k.json'], memoryIo())).toBe(64);
  });
});

describe('docket verify-receipt without a readable receipt', () => {
  it('reports no verdict (exit 2) with a stable code', async () => {
    const io = memoryIo();
    expect(await verifyReceipt(['/nonexistent/receipt.json', '--policy', '/nonexistent/p.json'], io)).toBe(2);
    expect(JSON.parse(io.out())).toMatchObject({ noVerdict: { code: 'receipt-unreadable' } });
  });
});
