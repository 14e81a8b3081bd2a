import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateLedgerCorpus } from '../../conformance/ledger/scenarios.js';
import { verifyExportFiles } from '../../core/ledger/verify/index.js';

const DIR = join(import.meta.dirname, '..', '..', 'conformance', 'ledger');
const SCENARIOS = join(DIR, 'scenarios');

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(relative(DIR, full));
  }
  return out.sort();
}

const names = readdirSync(SCENARIOS)
  .filter((n) => statSync(join(SCENARIOS, n)).isDirectory())
  .sort();
const read = (name: string, file: string): Uint8Array | undefined => {
  const p = join(SCENARIOS, name, file);
  return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
};

describe('the ledger tamper corpus', () => {
  it('holds at least 40 frozen scenarios', () => {
    expect(names.length).toBeGreaterThanOrEqual(40);
  });

  it('is exactly what the committed generator produces, byte for byte, with no stale file', () => {
    const generated = generateLedgerCorpus();
    const onDisk = listFiles(SCENARIOS);
    expect(onDisk).toEqual([...generated.keys()].sort());
    for (const [path, text] of generated) expect(readFileSync(join(DIR, path), 'utf8'), path).toBe(text);
  });

  it('covers every entry status, checkpoint status and log and anchor finding at least once', () => {
    const codes = new Set<string>();
    for (const n of names) {
      const e = JSON.parse(readFileSync(join(SCENARIOS, n, 'expected.json'), 'utf8')) as {
        checkpoint?: { findings: { code: string }[] };
        allSignatures?: { findings: { code: string }[] };
      };
      for (const f of [...(e.checkpoint?.findings ?? []), ...(e.allSignatures?.findings ?? [])]) codes.add(f.code);
    }
    const wanted = [
      'malformed',
      'unsupported-version',
      'unknown-key',
      'key-not-valid-at-seq',
      'signature-mismatch',
      'misfiled',
      'projection-mismatch',
      'disposition-digest-mismatch',
      'evaluator-build-not-allowed',
      'checkpoint-unknown-key',
      'checkpoint-key-not-valid-at-seq',
      'checkpoint-signature-mismatch',
      'checkpoint-unauthorized-origin',
      'sequence-broken',
      'chain-broken',
      'head-mismatch',
      'duplicate-request',
      'position-without-entry',
      'position-mismatch',
      'unregistered-log',
      'anchored-log-missing',
      'tail-rollback',
      'root-mismatch',
      'checkpoint-inconsistent',
      'checkpoint-equivocation',
    ];
    expect(wanted.filter((c) => !codes.has(c))).toEqual([]);
  });

  for (const name of names) {
    for (const mode of ['checkpoint', 'allSignatures'] as const) {
      it(`gives the hand-written verdict for scenario ${name} on the ${mode === 'checkpoint' ? 'checkpoint path' : 'every-signature path'}`, async () => {
        const expected = JSON.parse(readFileSync(join(SCENARIOS, name, 'expected.json'), 'utf8')) as Record<
          string,
          unknown
        >;
        const markers = read(name, 'markers.json');
        const r = await verifyExportFiles(
          {
            ledger: read(name, 'ledger.jsonl') as Uint8Array,
            policy: read(name, 'policy.json') as Uint8Array,
            checkpoints: read(name, 'checkpoints.json') as Uint8Array,
            ...(markers ? { markers } : {}),
          },
          { allSignatures: mode === 'allSignatures' },
        );
        if ('noVerdict' in expected) {
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.error.code).toBe(expected.noVerdict);
        } else {
          expect(r.ok).toBe(true);
          if (r.ok) expect({ ok: r.value.ok, findings: r.value.findings }).toEqual(expected[mode]);
        }
      });
    }
  }
});
