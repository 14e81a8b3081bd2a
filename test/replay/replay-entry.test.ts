import { describe, expect, it } from 'vitest';
import { canonicalText } from '../../core/ledger/primitives/canonical.js';
import { buildEntry, parseStoredEntry, toStoredEntry } from '../../core/ledger/entries/entry.js';
import type { SignedEntry, UnsignedEntry } from '../../core/ledger/entries/entry-types.js';
import { keyPairFromSeed, signerFromKeyPair, type Signer } from '../../core/ledger/primitives/signature.js';
import type { StoredEntry } from '../../core/ledger/store/store.js';
import { checkEntry } from '../../core/ledger/verify/entry-status.js';
import { replayContext } from '../../core/replay/replay-context.js';
import { replayStoredEntry } from '../../core/replay/replay-entry.js';
import { type ReplayOptions } from '../../core/replay/types.js';
import { enc, exampleText, hex, request, world } from './world.js';

const VENDOR = 'vendor-onboarding-target.json';
const TRIAGE = 'data-request-intake-triage.json';
const LOW_RISK = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';

const replay = (stored: StoredEntry, options: ReplayOptions) => replayStoredEntry(stored, replayContext(options));

function entryOf(stored: StoredEntry): SignedEntry {
  const p = parseStoredEntry(stored.body);
  if (!p.ok) throw new Error(p.error.detail);
  return p.value.entry;
}

/** The entry with `change` applied, re-signed by `signer` as a forger holding the key would. */
function resign(stored: StoredEntry, signer: Signer, change: (e: Record<string, unknown>) => void): StoredEntry {
  const { signature: _s, ...unsigned } = entryOf(stored) as SignedEntry & Record<string, unknown>;
  const copy = JSON.parse(JSON.stringify(unsigned)) as Record<string, unknown>;
  change(copy);
  return toStoredEntry(buildEntry(copy as unknown as UnsignedEntry, signer));
}

describe('replaying entries the pipeline recorded', () => {
  it('matches a disposition entry byte for byte, with the same work units', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(
      request('v-1', `sha256:${d}`, ` ${LOW_RISK} `, ',"evidence":{"tax-certificate":"present"}'),
    );
    const o = await replay(stored, w.options());
    expect(o.kind).toBe('disposition');
    expect(o.result).toBe('replay-match');
    expect(o.work?.recorded).toBeGreaterThan(0);
    expect(o.work?.replayed).toBe(o.work?.recorded);
    expect(o.evaluator).toBe('same');
    expect([o.logId, o.seq, o.requestId]).toEqual([stored.logId, stored.seq, 'v-1']);
  });

  it('matches a disposition entry whose request named the pack by alias', async () => {
    const w = world();
    w.publish(VENDOR);
    const stored = await w.submit(
      request('v-alias', 'https://packs.example.org/procurement/vendor-onboarding@2.1.0', LOW_RISK),
    );
    expect((await replay(stored, w.options())).result).toBe('replay-match');
  });

  it('matches an evaluation-error entry by class, phase and code', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('e-1', `sha256:${d}`, LOW_RISK, ',"evidence":{"tax-certificate":"maybe"}'));
    const e = entryOf(stored);
    expect(e.kind === 'evaluation-error' && [e.error.class, e.error.code]).toEqual([
      'malformed-input',
      'evidence-invalid-value',
    ]);
    const o = await replay(stored, w.options());
    expect(o.result).toBe('replay-match');
    expect(o.work?.replayed).toBe(e.work);
  });

  it('matches a budget-exhaustion entry under the recorded budget, not the deployment default', async () => {
    const w = world();
    const d = w.publish(TRIAGE);
    const stored = await w.submit(
      request('b-1', `sha256:${d}`, exampleText('requests/triage-complete-appropriate.facts.json'), ',"workBudget":10'),
    );
    const e = entryOf(stored);
    expect(e.kind === 'evaluation-error' && e.error.class).toBe('resource-exhaustion');
    expect(e.workBudget).toBe(10);
    const o = await replay(stored, w.options());
    expect(o.result).toBe('replay-match');
    expect(o.work).toEqual({ recorded: e.work, replayed: e.work });
  });

  it('matches an evaluation-error entry recorded for a stored pack that is not conformant', async () => {
    const w = world();
    const bad = enc.encode('{"specVersion":"0.3.0","id":"x"}');
    const d = hex(bad);
    w.packs.set(d, bad);
    const stored = await w.submit(request('nc-1', `sha256:${d}`, '{}'));
    const e = entryOf(stored);
    expect(e.kind === 'evaluation-error' && e.error.class).toBe('pack-not-conformant');
    expect((await replay(stored, w.options())).result).toBe('replay-match');
  });

  it('replays with the recorded supported-extension set rather than the running deployment’s', async () => {
    const w = world({ supportedExtensions: ['https://example.org/ext/never-declared'] });
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('x-1', `sha256:${d}`, LOW_RISK));
    expect(entryOf(stored).supportedExtensions).toEqual(['https://example.org/ext/never-declared']);
    expect((await replay(stored, w.options())).result).toBe('replay-match');
  });
});

describe('a replay that does not reproduce the entry', () => {
  it('reports a mismatch of the disposition when the recorded disposition and digest were altered and re-signed', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('m-1', `sha256:${d}`, LOW_RISK, ',"evidence":{"tax-certificate":"present"}'));
    const forged = resign(stored, w.signer, (e) => {
      const disp = e.disposition as { kind: string; outcomeId?: string };
      expect(disp.outcomeId).toBe('onboard');
      disp.outcomeId = 'reject';
      e.dispositionDigest = hex(canonicalText(disp));
    });
    const o = await replay(forged, w.options());
    expect(o.result).toBe('replay-mismatch');
    expect(o.differs?.map((x) => x.member)).toEqual(['dispositionDigest']);
    expect(o.differs?.[0]?.recorded).toBe(
      entryOf(forged).kind === 'disposition' && (entryOf(forged) as { dispositionDigest: string }).dispositionDigest,
    );
    expect(o.differs?.[0]?.replayed).toBe((entryOf(stored) as { dispositionDigest: string }).dispositionDigest);
  });

  it('reports a mismatch of work units when the recorded work was altered and re-signed', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('m-2', `sha256:${d}`, LOW_RISK));
    const real = entryOf(stored).work;
    const forged = resign(stored, w.signer, (e) => void (e.work = real + 1));
    const o = await replay(forged, w.options());
    expect(o.result).toBe('replay-mismatch');
    expect(o.differs).toEqual([{ member: 'work', recorded: real + 1, replayed: real }]);
  });

  it('reports a mismatch of the error class when an error entry was altered and re-signed', async () => {
    const w = world();
    const d = w.publish(TRIAGE);
    const stored = await w.submit(
      request('m-3', `sha256:${d}`, exampleText('requests/triage-complete-appropriate.facts.json'), ',"workBudget":10'),
    );
    const forged = resign(stored, w.signer, (e) => void ((e.error as { class: string }).class = 'malformed-input'));
    const o = await replay(forged, w.options());
    expect(o.differs?.map((x) => x.member)).toEqual(['error.class']);
  });

  it('reports a mismatch of the facts digest when it was altered and re-signed', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('m-4', `sha256:${d}`, LOW_RISK));
    const forged = resign(stored, w.signer, (e) => void (e.factsDigest = '0'.repeat(64)));
    const o = await replay(forged, w.options());
    expect(o.differs).toEqual([{ member: 'factsDigest', recorded: '0'.repeat(64), replayed: hex(LOW_RISK) }]);
  });
});

describe('a replay that does not reproduce a re-signed request member', () => {
  const EVIDENCE = ',"evidence":{"tax-certificate":"present"}';
  const cases: [string, (e: Record<string, unknown>) => void][] = [
    ['evidenceDigest', (e) => void (e.evidenceDigest = '1'.repeat(64))],
    ['correlation', (e) => void (e.correlation = { tenant: 'someone-else' })],
    ['requestId', (e) => void (e.requestId = 'another-request')],
    ['pack.id', (e) => void ((e.pack as { id: string }).id = 'https://packs.example.org/other')],
    ['pack.version', (e) => void ((e.pack as { version: string }).version = '9.9.9')],
    ['specVersion', (e) => void (e.specVersion = '0.2.0')],
  ];
  for (const [member, change] of cases) {
    it(`reports a mismatch of ${member} when it was altered and re-signed`, async () => {
      const w = world();
      const d = w.publish(VENDOR);
      const stored = await w.submit(request(`r-${member}`, `sha256:${d}`, LOW_RISK, EVIDENCE));
      expect((await replay(stored, w.options())).result).toBe('replay-match');
      const forged = resign(stored, w.signer, change);
      const o = await replay(forged, w.options());
      expect(o.result).toBe('replay-mismatch');
      expect(o.differs?.map((x) => x.member)).toEqual([member]);
    });
  }

  for (const member of ['error.phase', 'error.code'] as const) {
    it(`reports a mismatch of ${member} when an error entry was altered and re-signed`, async () => {
      const w = world();
      const d = w.publish(TRIAGE);
      const stored = await w.submit(
        request(
          `r-${member}`,
          `sha256:${d}`,
          exampleText('requests/triage-complete-appropriate.facts.json'),
          ',"workBudget":10',
        ),
      );
      const forged = resign(stored, w.signer, (e) => {
        const error = e.error as { phase: string; code: string };
        if (member === 'error.phase') error.phase = error.phase === 'preflight' ? 'evaluation' : 'preflight';
        else error.code = `${error.code}-altered`;
      });
      const o = await replay(forged, w.options());
      expect(o.result).toBe('replay-mismatch');
      expect(o.differs?.map((x) => x.member)).toEqual([member]);
    });
  }
});

describe('entries that cannot be replayed', () => {
  it('says request-purged when the archive no longer holds the request bytes, and the entry still verifies', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('p-1', `sha256:${d}`, LOW_RISK));
    w.archive.delete(entryOf(stored).requestDigest);
    const o = await replay(stored, w.options());
    expect([o.result, o.reason]).toEqual(['not-replayable', 'request-purged']);
    // The ledger binds only digests: the purged entry's own verification is unchanged.
    expect(checkEntry(stored, w.policy, true).status).toBe('ok');
  });

  it('says request-digest-mismatch when the retained bytes do not hash to the recorded digest', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('p-2', `sha256:${d}`, LOW_RISK));
    w.archive.set(
      entryOf(stored).requestDigest,
      request('p-2', `sha256:${d}`, '{"vendor":{"riskScore":"99","sanctioned":true}}'),
    );
    const o = await replay(stored, w.options());
    expect([o.result, o.reason]).toEqual(['not-replayable', 'request-digest-mismatch']);
  });

  it('says request-digest-mismatch when the archive itself refuses its stored bytes as corrupt', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('p-3', `sha256:${d}`, LOW_RISK));
    const o = await replay(
      stored,
      w.options({
        fetch: { ...w.fetch, requestBytes: async () => ({ corrupt: 'retained request does not hash to its digest' }) },
      }),
    );
    expect([o.result, o.reason, o.detail]).toEqual([
      'not-replayable',
      'request-digest-mismatch',
      'retained request does not hash to its digest',
    ]);
  });

  it('says pack-missing when the registry holds no bytes for the recorded pack digest', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('p-4', `sha256:${d}`, LOW_RISK));
    w.packs.delete(d);
    expect((await replay(stored, w.options())).reason).toBe('pack-missing');
  });

  it('says pack-digest-mismatch when the registry serves other bytes for the recorded digest', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('p-5', `sha256:${d}`, LOW_RISK));
    w.packs.set(d, enc.encode(exampleText(VENDOR).replace('2.1.0', '2.1.1')));
    expect((await replay(stored, w.options())).reason).toBe('pack-digest-mismatch');
  });

  it('says entry-fails-verification with the verify status when the entry was altered without re-signing', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('p-6', `sha256:${d}`, LOW_RISK));
    const e = entryOf(stored);
    const body = stored.body.replace(`"work":${e.work}`, `"work":${e.work + 1}`);
    expect(body).not.toBe(stored.body);
    const o = await replay({ ...stored, body }, w.options());
    expect([o.result, o.reason, o.detail]).toEqual([
      'not-replayable',
      'entry-fails-verification',
      'signature-mismatch',
    ]);
  });

  it('says entry-fails-verification when the entry is signed by a key the trust policy does not pin', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('p-7', `sha256:${d}`, LOW_RISK));
    const other = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(3)));
    const forged = resign(stored, other, (e) => void (e.keyId = other.keyId));
    const o = await replay(forged, w.options());
    expect([o.reason, o.detail]).toEqual(['entry-fails-verification', 'unknown-key']);
  });
});

describe('the evaluator identity (ADR 0100)', () => {
  it('replays an entry of another build of the same evaluator version and marks it build-differs', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('i-1', `sha256:${d}`, LOW_RISK));
    const o = await replay(stored, w.options({ evaluator: { ...w.options().evaluator, buildDigest: 'c'.repeat(64) } }));
    expect([o.result, o.evaluator]).toEqual(['replay-match', 'build-differs']);
  });

  it('does not replay an entry recorded by another evaluator version unless asked to, and then marks it', async () => {
    const w = world();
    const d = w.publish(VENDOR);
    const stored = await w.submit(request('i-2', `sha256:${d}`, LOW_RISK));
    const newer = { ...w.options().evaluator, version: '9.9.9' };
    const refused = await replay(stored, w.options({ evaluator: newer }));
    expect([refused.result, refused.reason, refused.evaluator]).toEqual([
      'not-replayable',
      'evaluator-identity-differs',
      'identity-differs',
    ]);
    const across = await replay(stored, w.options({ evaluator: newer, acrossEvaluators: true }));
    expect([across.result, across.evaluator]).toEqual(['replay-match', 'identity-differs']);
  });
});
