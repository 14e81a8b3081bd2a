import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import {
  checkEntryFits,
  DEFAULT_ADMISSION_LIMITS,
  worstCaseEntryBytes,
  type AdmissionInput,
} from '../../core/ledger/entries/worst-case-entry.js';
import { sha256Hex } from '../../core/ledger/primitives/bytes.js';
import { buildEntry, capMessage } from '../../core/ledger/entries/entry.js';
import { ENTRY_LIMITS } from '../../core/ledger/entries/entry-types.js';
import { BUILD_DIGEST, dispositionEntry, errorEntry, refusalEntry, SIGNER } from './fixtures.js';

const routes = (n: number, nameBytes: number) =>
  Array.from({ length: n }, (_, i) => ({ kind: 'queue' as const, name: `${i}`.padEnd(nameBytes, 'q') }));

const input = (over: Partial<AdmissionInput> = {}): AdmissionInput => ({
  requestId: 'req-1',
  correlation: { tenant: 'acme', trace: 't-1' },
  pack: {
    id: 'triage',
    version: '1.0.0',
    specVersion: '0.3.0',
    outcomeIds: ['approve', 'reject-with-review'],
    routeTargets: routes(3, 20),
  },
  logIds: ['log-0', 'log-1'],
  supportedExtensions: ['x-geo'],
  evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD_DIGEST },
  ...over,
});

describe('admission before evaluation', () => {
  it('bounds the real entry of every kind the request can produce', () => {
    const i = input();
    const bound = worstCaseEntryBytes(i);
    const targets = (i.pack.routeTargets ?? []).map((t) => ({ ...t }));
    const disposition = {
      kind: 'unresolved',
      reasons: ['conflict', 'exception-escalation'],
      handoff: { state: 'requested', triggeredBy: ['conflict', 'exception-escalation'], routes: targets },
    };
    const big = 9_007_199_254_740_991;
    const common = {
      logId: 'log-1',
      seq: big,
      prevHash: sha256Hex('p'),
      requestId: 'req-1',
      correlation: i.correlation,
      supportedExtensions: ['x-geo'],
      workBudget: big,
      work: big,
      time: '2026-12-31T23:59:59.999999999Z',
    };
    const entries = [
      dispositionEntry({
        ...common,
        disposition,
        dispositionDigest: sha256Hex(canonicalize(disposition) as string),
        evidenceDigest: sha256Hex('e'),
      }),
      dispositionEntry({
        ...common,
        disposition: {
          kind: 'outcome',
          outcomeId: 'reject-with-review',
          reasons: [],
          handoff: { state: 'none', routes: [] },
        },
        dispositionDigest: sha256Hex(
          canonicalize({
            handoff: { routes: [], state: 'none' },
            kind: 'outcome',
            outcomeId: 'reject-with-review',
            reasons: [],
          }) as string,
        ),
      }),
      errorEntry({
        ...common,
        error: {
          class: 'unsupported-required-extension',
          phase: 'preflight',
          code: 'c'.repeat(64),
          message: capMessage('\u0000'.repeat(5000)),
        },
      }),
      refusalEntry({
        ...common,
        workBudget: null,
        work: 0,
        refusal: { code: 'request-malformed', message: capMessage('"\\'.repeat(3000)) },
      }),
    ];
    for (const u of entries) {
      const body = buildEntry(u, SIGNER).body;
      expect(Buffer.byteLength(body, 'utf8')).toBeLessThanOrEqual(bound);
    }
  });

  it('grows with the route count and the longest route target name', () => {
    // Small packs are bounded by the capped error message (6 bytes per escaped byte); large ones by the disposition.
    const small = worstCaseEntryBytes(input({ pack: { ...input().pack, routeTargets: routes(1, 10) } }));
    expect(worstCaseEntryBytes(input({ pack: { ...input().pack, routeTargets: routes(1, 11) } }))).toBe(small);
    expect(small).toBeGreaterThan(6 * ENTRY_LIMITS.errorMessageBytes);
    const base = worstCaseEntryBytes(input({ pack: { ...input().pack, routeTargets: routes(1, 10_000) } }));
    expect(worstCaseEntryBytes(input({ pack: { ...input().pack, routeTargets: routes(1, 10_001) } }))).toBe(base + 1);
    expect(worstCaseEntryBytes(input({ pack: { ...input().pack, routeTargets: routes(2, 10_000) } }))).toBeGreaterThan(
      base + 10_000,
    );
    expect(
      worstCaseEntryBytes(
        input({ pack: { ...input().pack, routeTargets: routes(1, 10_000), outcomeIds: ['a'.repeat(200)] } }),
      ),
    ).toBeGreaterThan(base);
  });

  it('admits a request exactly at the limit and refuses one byte over it', () => {
    const at = (nameBytes: number) => input({ pack: { ...input().pack, routeTargets: routes(16, nameBytes) } });
    const w0 = worstCaseEntryBytes(at(10_000));
    const limit = DEFAULT_ADMISSION_LIMITS.itemBytes - DEFAULT_ADMISSION_LIMITS.itemOverheadBytes;
    // One more byte in the longest of 16 names adds 16 bytes; use a single route to hit the limit exactly.
    const one = (nameBytes: number) => input({ pack: { ...input().pack, routeTargets: routes(1, nameBytes) } });
    const w1 = worstCaseEntryBytes(one(10_000));
    const exact = 10_000 + (limit - w1);
    expect(worstCaseEntryBytes(one(exact))).toBe(limit);
    expect(checkEntryFits(one(exact)).ok).toBe(true);
    const over = checkEntryFits(one(exact + 1));
    expect(over.ok ? 'admitted' : [over.error.code, over.error.worstCaseEntryBytes - over.error.limitBytes]).toEqual([
      'entry-would-not-fit',
      1,
    ]);
    expect(checkEntryFits(at(30_000)).ok).toBe(false);
    expect(w0).toBeLessThan(limit);
  });

  it('always has room for the admission refusal that records a refused request', () => {
    const maxCorrelation = Object.fromEntries(
      Array.from({ length: ENTRY_LIMITS.correlationMembers }, (_, i) => [`k${i}`.padEnd(64, 'k'), 'v'.repeat(256)]),
    );
    const refusalOnly = worstCaseEntryBytes(
      input({
        requestId: 'r'.repeat(256),
        correlation: maxCorrelation,
        pack: { id: 'p'.repeat(256), version: 'v'.repeat(64), specVersion: '0.3.0', outcomeIds: ['a'] },
      }),
    );
    expect(refusalOnly).toBeLessThan(DEFAULT_ADMISSION_LIMITS.itemBytes / 10);
  });
});
