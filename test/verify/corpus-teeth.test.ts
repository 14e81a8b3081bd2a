/**
 * The corpus has teeth: deliberately broken verifiers must each fail it. Each broken verifier is the real one with one
 * check taken out (a module of core/ledger replaced for this import only), run over every frozen scenario in both
 * modes; the test names scenarios whose verdict the break must change, so a corpus that lost them fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as EntryModuleNs from '../../core/ledger/entries/entry.js';
import type * as EntryStatusModuleNs from '../../core/ledger/verify/entry-status.js';
import type * as TrustPolicyModuleNs from '../../core/ledger/trust-policy/trust-policy.js';
import type { TrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';

type EntryModule = typeof EntryModuleNs;
type EntryStatusModule = typeof EntryStatusModuleNs;
type TrustPolicyModule = typeof TrustPolicyModuleNs;

const SCENARIOS = join(import.meta.dirname, '..', '..', 'conformance', 'ledger', 'scenarios');
const names = readdirSync(SCENARIOS)
  .filter((n) => statSync(join(SCENARIOS, n)).isDirectory())
  .sort();
const file = (name: string, f: string): Uint8Array | undefined => {
  try {
    return new Uint8Array(readFileSync(join(SCENARIOS, name, f)));
  } catch {
    return undefined;
  }
};

/** The scenarios (with mode) whose verdict differs from the hand-written one, under the verifier imported now. */
async function failingScenarios(): Promise<string[]> {
  // vi.resetModules() also reset the crypto port test/setup-node-crypto.ts installed: without this the fresh module
  // graph verifies on the pure-JavaScript port, the same verdicts (test/ledger/crypto-port.test.ts) several times slower.
  const { useFastestLedgerCrypto } = await import('../../adapters/sodium-ledger-crypto.js');
  useFastestLedgerCrypto();
  const { verifyExportFiles } = await import('../../core/ledger/verify/files.js');
  const failing: string[] = [];
  for (const name of names) {
    const expected = JSON.parse(readFileSync(join(SCENARIOS, name, 'expected.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    if ('noVerdict' in expected) continue;
    for (const mode of ['checkpoint', 'allSignatures'] as const) {
      const markers = file(name, 'markers.json');
      const r = await verifyExportFiles(
        {
          ledger: file(name, 'ledger.jsonl') as Uint8Array,
          policy: file(name, 'policy.json') as Uint8Array,
          checkpoints: file(name, 'checkpoints.json') as Uint8Array,
          ...(markers ? { markers } : {}),
        },
        { allSignatures: mode === 'allSignatures' },
      );
      const got = r.ok ? { ok: r.value.ok, findings: r.value.findings } : { noVerdict: r.error.code };
      if (JSON.stringify(got) !== JSON.stringify(expected[mode])) failing.push(`${name}/${mode}`);
    }
  }
  return failing;
}

afterEach(() => {
  vi.doUnmock('../../core/ledger/entries/entry.js');
  vi.doUnmock('../../core/ledger/verify/entry-status.js');
  vi.doUnmock('../../core/ledger/trust-policy/trust-policy.js');
  vi.resetModules();
});

describe('the ledger corpus against deliberately broken verifiers', () => {
  it('passes the real verifier (the control: every difference below is the break’s)', async () => {
    vi.resetModules();
    expect(await failingScenarios()).toEqual([]);
  });

  it('fails a verifier that skips the entry signature check', async () => {
    vi.resetModules();
    vi.doMock('../../core/ledger/entries/entry.js', async (orig) => ({
      ...(await orig<EntryModule>()),
      verifyStoredEntrySignature: () => true,
    }));
    const failing = await failingScenarios();
    for (const s of [
      'forged-head-then-checkpoint-laundering/checkpoint',
      'forged-entry-in-retired-key-range/checkpoint',
      'forged-entry-in-retired-key-range-under-newer-checkpoint-key/checkpoint',
      'edited-first-entry-past-matched-checkpoint/checkpoint',
      'verifying-checkpoint-vouches-for-covered-entries/allSignatures',
    ])
      expect(failing).toContain(s);
  });

  it('fails a verifier that skips the chain link check', async () => {
    vi.resetModules();
    // Every entry's prevHash is made to equal the hash of the entry the verifier saw just before it in that log.
    const last = new Map<string, string | null>();
    vi.doMock('../../core/ledger/verify/entry-status.js', async (orig) => {
      const real = await orig<EntryStatusModule>();
      const { toHex } = await import('../../core/ledger/primitives/bytes.js');
      return {
        ...real,
        checkEntry: (...args: Parameters<typeof real.checkEntry>) => {
          const c = real.checkEntry(...args);
          const stored = args[0];
          const prev = stored.seq === 0 ? null : (last.get(stored.logId) ?? null);
          last.set(stored.logId, toHex(c.entryHash));
          return c.entry === null ? c : { ...c, entry: { ...c.entry, prevHash: prev } };
        },
      };
    });
    const failing = await failingScenarios();
    for (const s of ['edited-first-entry-past-matched-checkpoint/checkpoint', 'edited-signed-body-anchored/checkpoint'])
      expect(failing).toContain(s);
  });

  it('fails a verifier that accepts any pinned key for checkpoints, whatever its role and range', async () => {
    vi.resetModules();
    vi.doMock('../../core/ledger/trust-policy/trust-policy.js', async (orig) => {
      const real = await orig<TrustPolicyModule>();
      return {
        ...real,
        keyForCheckpoint: (policy: TrustPolicy, keyId: string) => {
          const key = policy.keys.find((k) => k.keyId === keyId);
          return key === undefined
            ? { ok: false as const, code: 'unknown-key' as const }
            : { ok: true as const, key, coversTree: true };
        },
      };
    });
    const failing = await failingScenarios();
    for (const s of [
      'key-rotation-hijack-checkpoint/checkpoint',
      'checkpoint-before-start-of-key-range/checkpoint',
      'forged-entry-in-retired-key-range/checkpoint',
      'forged-entry-in-retired-key-range-under-newer-checkpoint-key/checkpoint',
    ])
      expect(failing).toContain(s);
  });
});
