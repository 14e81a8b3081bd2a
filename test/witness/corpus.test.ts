import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateWitnessCorpus, W1 } from '../../conformance/ledger/witness-scenarios.js';
import { parseCheckpointOrigin } from '../../core/ledger/checkpoints/checkpoint-note.js';
import { readNotesExport } from '../../core/ledger/export/notes-export.js';
import { isAllowedAuthority, readTrustPolicy, type TrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { verifyExportFiles } from '../../core/ledger/verify/index.js';
import type { Finding } from '../../core/ledger/verify/findings.js';
import { witnessAddCheckpoint } from '../../core/ledger/witness/add-checkpoint.js';
import { readWitnessPolicy } from '../../core/ledger/witness/witness-policy.js';
import { readWitnessState } from '../../core/ledger/witness/witness-state.js';

const DIR = join(import.meta.dirname, '..', '..', 'conformance', 'ledger');
const CORPUS = join(DIR, 'witness');
const names = readdirSync(CORPUS)
  .filter((n) => statSync(join(CORPUS, n)).isDirectory())
  .sort();
const file = (name: string, f: string): Uint8Array | undefined => {
  const p = join(CORPUS, name, f);
  return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
};
const expectedOf = (name: string) =>
  JSON.parse(readFileSync(join(CORPUS, name, 'expected.json'), 'utf8')) as {
    verify?: { now: number; ok: boolean; findings: Finding[] };
    witness?: { now: number; status: number; refusal: string | null };
  };

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const full = join(dir, n);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(relative(DIR, full));
  }
  return out.sort();
}

interface Broken {
  readonly skipRootComparison?: boolean;
  readonly skipConsistencyCheck?: boolean;
}

async function verifyScenario(name: string, mode: 'checkpoint' | 'all', broken: Broken = {}) {
  const e = expectedOf(name).verify!;
  const wp = readWitnessPolicy(file(name, 'witness-policy.json')!);
  const notes = readNotesExport(file(name, 'cosigned.json')!);
  if (!wp.ok || !notes.ok) throw new Error('unreadable witness inputs');
  const markers = file(name, 'markers.json');
  const r = await verifyExportFiles(
    {
      ledger: file(name, 'ledger.jsonl')!,
      policy: file(name, 'policy.json')!,
      checkpoints: file(name, 'checkpoints.json')!,
      ...(markers ? { markers } : {}),
    },
    {
      allSignatures: mode === 'all',
      witnesses: {
        policy: wp.value,
        notes: notes.value.map((n) => n.note),
        now: e.now,
        ...(broken.skipRootComparison ? { skipRootComparison: true } : {}),
      },
    },
  );
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
}

function witnessScenario(name: string, broken: Broken = {}) {
  const e = expectedOf(name).witness!;
  const policy = readTrustPolicy(file(name, 'policy.json')!);
  const state = readWitnessState(file(name, 'witness-state.json')!);
  if (!policy.ok || !state.ok) throw new Error('unreadable witness scenario');
  const p: TrustPolicy = policy.value;
  return witnessAddCheckpoint(new TextDecoder().decode(file(name, 'add-checkpoint.txt')!), state.value, {
    policy: p,
    knowsOrigin: (o) => {
      const x = parseCheckpointOrigin(o);
      return x !== null && p.logs.includes(x.logId) && isAllowedAuthority(p, x);
    },
    key: W1,
    now: e.now,
    ...(broken.skipConsistencyCheck ? { skipConsistencyCheck: true } : {}),
  });
}

const verifyNames = names.filter((n) => expectedOf(n).verify !== undefined);
const witnessNames = names.filter((n) => expectedOf(n).witness !== undefined);

describe('the witness corpus', () => {
  it('is exactly what the committed generator produces, byte for byte, with no stale file', async () => {
    const generated = await generateWitnessCorpus();
    expect(listFiles(CORPUS)).toEqual([...generated.keys()].sort());
    for (const [path, text] of generated) expect(readFileSync(join(DIR, path), 'utf8'), path).toBe(text);
  });

  it('covers rollback, stale-anchor and unwitnessed-anchor, and every witness refusal it names', () => {
    const codes = new Set(verifyNames.flatMap((n) => expectedOf(n).verify!.findings.map((f) => f.code)));
    expect([...codes].sort()).toEqual(['rollback', 'stale-anchor', 'unwitnessed-anchor']);
    const refusals = new Set(witnessNames.map((n) => expectedOf(n).witness!.refusal));
    expect(refusals).toEqual(new Set(['inconsistent', 'equivocation', 'rollback', 'size-mismatch', null]));
  });

  for (const name of verifyNames)
    for (const mode of ['checkpoint', 'all'] as const)
      it(`${name}: verify --witnesses (${mode === 'all' ? 'every signature' : 'checkpoint path'}) reports exactly the expected findings`, async () => {
        const v = await verifyScenario(name, mode);
        const e = expectedOf(name).verify!;
        expect({ ok: v.ok, findings: v.findings }).toEqual({ ok: e.ok, findings: e.findings });
      });

  for (const name of witnessNames)
    it(`${name}: the witness answers with the expected status and refusal`, () => {
      const out = witnessScenario(name);
      const e = expectedOf(name).witness!;
      expect({ status: out.response.status, refusal: out.refusal }).toEqual({ status: e.status, refusal: e.refusal });
      expect(out.state === null).toBe(e.status !== 200);
    });
});

describe('the witness corpus has teeth', () => {
  it('a witness that skips the consistency check fails it (it cosigns the fork)', () => {
    const failing = witnessNames.filter((n) => {
      const out = witnessScenario(n, { skipConsistencyCheck: true });
      return out.response.status !== expectedOf(n).witness!.status;
    });
    expect(failing).toContain('equivocation-fork-later-size');
  });

  it('a verifier that compares only the size of a cosigned checkpoint, not its root, fails it', async () => {
    const failing: string[] = [];
    for (const n of verifyNames) {
      const v = await verifyScenario(n, 'checkpoint', { skipRootComparison: true });
      if (JSON.stringify(v.findings) !== JSON.stringify(expectedOf(n).verify!.findings)) failing.push(n);
    }
    expect(failing).toContain('equivocation-fork-later-size');
  });

  it('a verifier run without witnesses fails it: every attack scenario passes unseen', async () => {
    const passing: string[] = [];
    for (const n of verifyNames.filter((x) => x !== 'witnessed-honest')) {
      const markers = file(n, 'markers.json');
      const r = await verifyExportFiles({
        ledger: file(n, 'ledger.jsonl')!,
        policy: file(n, 'policy.json')!,
        checkpoints: file(n, 'checkpoints.json')!,
        ...(markers ? { markers } : {}),
      });
      if (r.ok && r.value.ok) passing.push(n);
    }
    expect(passing).toEqual(
      expect.arrayContaining([
        'tail-deleted-with-markers',
        'rollback-table-checkpoints-removed',
        'stale-checkpoint-file',
      ]),
    );
  });
});
