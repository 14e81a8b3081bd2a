/**
 * The auditor's rule for an archived request without an entry (core/ledger/verify/omission.ts, ADRs 0292,
 * 0455): a finding, unless SQS's redrive moved it to a DLQ from a path queue, its id is recorded for other bytes, or
 * it is possibly in flight — a path queue still holds messages AND the request is younger than the redelivery
 * window. An idle path leaves no excuse; a first retention dated in the future is a finding of its own.
 */
import { describe, expect, it } from 'vitest';
import {
  omissionFindings,
  recordedKey,
  RETAINED_AT_SKEW_SECONDS,
  withArchiveCheck,
  type PathQueueState,
} from '../../core/ledger/verify/omission.js';
import type { Verdict } from '../../core/ledger/verify/findings.js';

const D = (c: string) => c.repeat(64);
const NOW = 1_800_000_000;
const queue = (waiting: number, inFlight: number): PathQueueState => ({
  name: 'docket-t-intake',
  waiting,
  inFlight,
  redeliveryWindowSeconds: 900,
});
const LEDGER_QUEUE = 'arn:aws:sqs:us-east-1:000000000000:docket-t-ledger.fifo';
const base = {
  recorded: new Set([recordedKey('kept', D('a'))]),
  deadLettered: [],
  redriveSources: new Map([[LEDGER_QUEUE, 'ledger-queue-redriven']]),
  now: NOW,
};

describe('archived requests without an entry', () => {
  it('names a request whose bytes no entry records when the queues are idle, however young it is', () => {
    const out = omissionFindings({
      ...base,
      archived: [
        { requestId: 'kept', requestDigest: D('a'), retainedAt: NOW - 5 },
        { requestId: 'gone', requestDigest: D('b'), retainedAt: NOW - 1 },
      ],
      queues: [queue(0, 0)],
    });
    expect(out).toEqual({
      findings: [{ code: 'request-without-entry', requestId: 'gone', requestDigest: D('b') }],
      excused: [],
    });
  });

  it('excuses a young request while a path queue holds messages, and not once it is older than the window', () => {
    const archived = [
      { requestId: 'young', requestDigest: D('c'), retainedAt: NOW - 899 },
      { requestId: 'old', requestDigest: D('d'), retainedAt: NOW - 900 },
      { requestId: 'undated', requestDigest: D('e'), retainedAt: null },
    ];
    for (const q of [queue(3, 0), queue(0, 1)]) {
      const out = omissionFindings({ ...base, archived, queues: [q] });
      expect(out.excused).toEqual([{ requestId: 'young', requestDigest: D('c'), excuse: 'in-flight' }]);
      expect(out.findings.map((f) => f.requestId)).toEqual(['old', 'undated']);
    }
  });

  it('counts any queue of the path: a second queue holding messages excuses as the intake would', () => {
    const archived = [{ requestId: 'young', requestDigest: D('c'), retainedAt: NOW - 10 }];
    const out = omissionFindings({ ...base, archived, queues: [queue(0, 0), { ...queue(0, 2), name: 'fifo' }] });
    expect(out.findings).toEqual([]);
  });

  it('excuses a request SQS redrove from a path queue, with the reason of that queue', () => {
    const out = omissionFindings({
      ...base,
      archived: [{ requestId: 'dead', requestDigest: D('f'), retainedAt: NOW - 10_000 }],
      deadLettered: [{ digest: D('f'), sourceArn: LEDGER_QUEUE }],
      queues: [queue(0, 0)],
    });
    expect(out).toEqual({
      findings: [],
      excused: [{ requestId: 'dead', requestDigest: D('f'), excuse: 'dead-lettered', reason: 'ledger-queue-redriven' }],
    });
  });

  it('excuses nothing by a DLQ message SQS did not move there: no source, or a queue off the request path', () => {
    for (const sourceArn of [null, 'arn:aws:sqs:us-east-1:000000000000:docket-t-route-review']) {
      const out = omissionFindings({
        ...base,
        archived: [{ requestId: 'gone', requestDigest: D('f'), retainedAt: NOW - 10_000 }],
        deadLettered: [{ digest: D('f'), sourceArn }],
        queues: [queue(0, 0)],
      });
      expect(out, String(sourceArn)).toEqual({
        findings: [{ code: 'request-without-entry', requestId: 'gone', requestDigest: D('f') }],
        excused: [],
      });
    }
  });

  it('excuses a request whose id the ledger records for other bytes, and only then', () => {
    const out = omissionFindings({
      ...base,
      archived: [
        { requestId: 'kept', requestDigest: D('f'), retainedAt: NOW - 10_000 },
        { requestId: 'keptx', requestDigest: D('g'), retainedAt: NOW - 10_000 },
      ],
      queues: [queue(0, 0)],
    });
    expect(out).toEqual({
      findings: [{ code: 'request-without-entry', requestId: 'keptx', requestDigest: D('g') }],
      excused: [{ requestId: 'kept', requestDigest: D('f'), excuse: 'request-id-reused' }],
    });
  });

  it('reports a first retention dated beyond the allowed skew as a finding, busy queues and DLQ or not', () => {
    const late = NOW + RETAINED_AT_SKEW_SECONDS + 1;
    const out = omissionFindings({
      ...base,
      archived: [
        { requestId: 'future', requestDigest: D('h'), retainedAt: late },
        { requestId: 'skewed', requestDigest: D('i'), retainedAt: NOW + RETAINED_AT_SKEW_SECONDS },
      ],
      deadLettered: [{ digest: D('h'), sourceArn: LEDGER_QUEUE }],
      queues: [queue(4, 2)],
    });
    expect(out).toEqual({
      findings: [{ code: 'request-retained-in-future', requestId: 'future', requestDigest: D('h'), retainedAt: late }],
      excused: [{ requestId: 'skewed', requestDigest: D('i'), excuse: 'in-flight' }],
    });
  });
});

describe('a ledger verdict with the archive cross-check folded in', () => {
  const verdict = (findings: Verdict['findings']): Verdict => ({
    ok: findings.length === 0,
    findings,
    summary: { mode: 'checkpoint', logs: 1, entries: 3, entrySignaturesChecked: 1, checkpoints: 1, anchors: [] },
  });
  const gone = { code: 'request-without-entry' as const, requestId: 'gone', requestDigest: D('b') };

  it('turns an ok ledger not ok when a request has no entry, its finding after the ledger’s', () => {
    const tail: Verdict['findings'][0] = { code: 'chain-broken', logId: 'log-0', seq: 2 };
    const out = withArchiveCheck(verdict([tail]), { findings: [gone], excused: [], archived: 4, queues: [] });
    expect(out.ok).toBe(false);
    expect(out.findings).toEqual([tail, gone]);
    expect(out.summary.archive).toEqual({ checked: true, requests: 4, excused: [], queues: [] });
    const clean = withArchiveCheck(verdict([]), { findings: [], excused: [], archived: 4, queues: [] });
    expect(clean.ok).toBe(true);
  });

  it('says the archive was not cross-checked when the stage has none, and keeps the ledger’s verdict', () => {
    const out = withArchiveCheck(verdict([]), { missing: 'no table docket-t-requests' });
    expect(out.ok).toBe(true);
    expect(out.summary.archive).toEqual({ checked: false, reason: 'no table docket-t-requests' });
  });
});
