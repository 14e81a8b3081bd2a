import { describe, expect, it } from 'vitest';
import {
  DELIVERY_JOB_FORMAT,
  deliveryJobBytes,
  MAX_JOB_BYTES,
  MAX_JOB_ENTRIES,
  readDeliveryJob,
  type DeliveryJob,
} from '../../core/pipeline/delivery-job.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const job: DeliveryJob = {
  logId: 'prod-3',
  entries: [
    { seq: 40, requestId: 'req-b' },
    { seq: 41, requestId: 'req-a' },
  ],
};
const code = (r: { ok: boolean; error?: { code: string; message: string } }): string | undefined =>
  r.ok ? undefined : r.error!.code;

describe('a delivery job', () => {
  it('round-trips through its RFC 8785 bytes', () => {
    const out = deliveryJobBytes(job);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.value).toBe(
      `{"entries":[{"requestId":"req-b","seq":40},{"requestId":"req-a","seq":41}],"format":"${DELIVERY_JOB_FORMAT}","logId":"prod-3"}`,
    );
    expect(readDeliveryJob(bytes(out.value))).toEqual({ ok: true, value: job });
  });

  it('is never serialized when its content breaks a rule, and says which', () => {
    const cases: [DeliveryJob, RegExp][] = [
      [{ ...job, logId: '../etc' }, /logId/],
      [{ ...job, entries: [] }, new RegExp(`1 to ${MAX_JOB_ENTRIES}`)],
      [
        { ...job, entries: Array.from({ length: MAX_JOB_ENTRIES + 1 }, (_, i) => ({ seq: i, requestId: `r${i}` })) },
        new RegExp(`1 to ${MAX_JOB_ENTRIES}`),
      ],
      [
        {
          ...job,
          entries: [
            { seq: 41, requestId: 'a' },
            { seq: 40, requestId: 'b' },
          ],
        },
        /above the one before/,
      ],
      [
        {
          ...job,
          entries: [
            { seq: 40, requestId: 'a' },
            { seq: 40, requestId: 'b' },
          ],
        },
        /above the one before/,
      ],
      [{ ...job, entries: [{ seq: -1, requestId: 'a' }] }, /≥ 0/],
      [{ ...job, entries: [{ seq: 1.5, requestId: 'a' }] }, /safe integer/],
      [
        {
          ...job,
          entries: [
            { seq: 1, requestId: 'a' },
            { seq: 2, requestId: 'a' },
          ],
        },
        /repeats/,
      ],
      [{ ...job, entries: [{ seq: 1, requestId: ' spaced' }] }, /requestId must match/],
      [{ ...job, entries: [{ seq: 1, requestId: 'a', extra: true } as never] }, /exactly seq and requestId/],
    ];
    for (const [bad, message] of cases) {
      const r = deliveryJobBytes(bad);
      expect(code(r)).toBe('delivery-job-invalid');
      if (!r.ok) expect(r.error.message).toMatch(message);
    }
  });

  it('refuses bytes that are not exactly a valid job in canonical form', () => {
    const good = (deliveryJobBytes(job) as { value: string }).value;
    const refused = [
      '{',
      '[]',
      good.replace(DELIVERY_JOB_FORMAT, 'docket.delivery-job/2'),
      good.replace('"logId"', '"logId":"x","logId"'), // a duplicate member name
      `${good.slice(0, -1)},"extra":1}`,
      good.replace('req-b', 'req-\\ud800'), // a lone surrogate
      ` ${good}`, // not canonical
      good.replace('"seq":40', '"seq":40.0'),
      good.replace('"seq":40', '"seq":4e1'),
    ];
    for (const text of refused) expect(code(readDeliveryJob(bytes(text))), text).toBe('delivery-job-invalid');
  });

  it('refuses an oversized job before parsing it', () => {
    const r = readDeliveryJob(new Uint8Array(MAX_JOB_BYTES + 1).fill(0x20));
    expect(code(r)).toBe('delivery-job-invalid');
    if (!r.ok) expect(r.error.message).toMatch(new RegExp(`at most ${MAX_JOB_BYTES} bytes`));
  });

  it('keeps the largest valid job well under its byte limit', () => {
    const longest = 'A'.repeat(128);
    const big = deliveryJobBytes({
      logId: 'L'.repeat(64),
      entries: Array.from({ length: MAX_JOB_ENTRIES }, (_, i) => ({
        seq: Number.MAX_SAFE_INTEGER - MAX_JOB_ENTRIES + i,
        requestId: longest.slice(0, 128 - String(i).length) + String(i),
      })),
    });
    expect(big.ok).toBe(true);
    if (big.ok) expect(bytes(big.value).length).toBeLessThan(MAX_JOB_BYTES / 2);
  });
});
