/**
 * The auditor's rule for an archived request without an entry (core/ledger/verify/omission.ts, ADR 0292): a finding,
 * unless on the intake DLQ (with its reason) or possibly in flight — a path queue still holds messages AND the
 * request is younger than the redelivery window. An idle path leaves no excuse.
 */
import { describe, expect, it } from 'vitest';
import {
  omissionFindings,
  recordedKey,
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
const base = {
  recorded: new Set([recordedKey('kept', D('a'))]),
  deadLettered: new Map<string, string>(),
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

  it('excuses a request on the DLQ with its reason, and an id recorded for other bytes is not recorded for these', () => {
    const out = omissionFindings({
      ...base,
      archived: [{ requestId: 'kept', requestDigest: D('f'), retainedAt: NOW - 10_000 }],
      deadLettered: new Map([[D('f'), 'request-id-reused']]),
      queues: [queue(0, 0)],
    });
    expect(out).toEqual({
      findings: [],
      excused: [{ requestId: 'kept', requestDigest: D('f'), excuse: 'dead-lettered', reason: 'request-id-reused' }],
    });
    const without = omissionFindings({
      ...base,
      archived: [{ requestId: 'kept', requestDigest: D('f'), retainedAt: NOW }],
      queues: [queue(0, 0)],
    });
    expect(without.findings).toEqual([{ code: 'request-without-entry', requestId: 'kept', requestDigest: D('f') }]);
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
