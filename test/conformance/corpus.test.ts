import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../conformance/generator/emit.js';
import { findRepoRoot, runCorpus } from '../../conformance/runner.js';

const ROOT = findRepoRoot();
const CORPUS = join(ROOT, 'conformance');
const manifest = (suite: string) => JSON.parse(readFileSync(join(CORPUS, suite, 'manifest.json'), 'utf8'));
const evalCases = manifest('evaluation').cases as Record<string, unknown>[];
const docCases = manifest('document').cases as Record<string, unknown>[];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('the committed corpus', () => {
  it('is exactly what the committed generator produces (deterministic, no stale files)', () => {
    const generated = generateCorpus(ROOT);
    const committed = ['document', 'evaluation']
      .flatMap((s) => walk(join(CORPUS, s)))
      .map((f) => relative(CORPUS, f))
      .sort();
    expect(committed).toEqual([...generated.keys()].sort());
    for (const [path, bytes] of generated)
      expect(Buffer.compare(readFileSync(join(CORPUS, path)), Buffer.from(bytes)), path).toBe(0);
  });

  it('is generated identically twice', () => {
    const a = generateCorpus(ROOT);
    const b = generateCorpus(ROOT);
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [k, v] of a) expect(Buffer.compare(Buffer.from(v), Buffer.from(b.get(k) as Uint8Array))).toBe(0);
  });

  it('has at least 80 document cases and 150 evaluation cases, each with a suiteVersion', () => {
    expect(docCases.length).toBeGreaterThanOrEqual(80);
    expect(evalCases.length).toBeGreaterThanOrEqual(150);
    expect(manifest('document').suiteVersion).toMatch(/^0\.3\.0\+docket\.\d+$/);
    expect(manifest('evaluation').suiteVersion).toBe(manifest('document').suiteVersion);
  });

  it('states exactly one expectation per evaluation case, in the §3.4.1 carrier members', () => {
    const allowed = new Set([
      'id',
      'description',
      'pack',
      'facts',
      'factsFile',
      'evidenceAvailability',
      'evidenceAvailabilityFile',
      'supportedExtensions',
      'workBudget',
      'expectedDisposition',
      'expectedErrorClass',
      'expectedErrorPhase',
    ]);
    for (const c of evalCases) {
      for (const k of Object.keys(c)) expect(allowed.has(k), `${c.id}: ${k}`).toBe(true);
      const disposition = 'expectedDisposition' in c;
      const error = 'expectedErrorClass' in c;
      expect(disposition !== error, String(c.id)).toBe(true);
      if (error) expect(['preflight', 'evaluation']).toContain(c.expectedErrorPhase);
      expect('facts' in c !== 'factsFile' in c, String(c.id)).toBe(true);
      if ('workBudget' in c) expect(Number.isInteger(c.workBudget) && (c.workBudget as number) > 0).toBe(true);
    }
  });

  it('writes every expected disposition in §8.3 form: sorted duplicate-free sets, outcomeId iff outcome, reasons empty iff outcome', () => {
    for (const c of evalCases) {
      const d = c.expectedDisposition as
        | {
            kind: string;
            outcomeId?: string;
            reasons: string[];
            handoff: { state: string; triggeredBy?: string[]; routes?: unknown[] };
          }
        | undefined;
      if (d === undefined) continue;
      const sorted = (xs: string[]) => xs.every((x, i) => i === 0 || (xs[i - 1] as string) < x);
      expect(sorted(d.reasons), String(c.id)).toBe(true);
      expect(d.kind === 'outcome', String(c.id)).toBe(d.outcomeId !== undefined);
      expect(d.kind === 'outcome', String(c.id)).toBe(d.reasons.length === 0);
      expect(d.handoff.state === 'requested', String(c.id)).toBe(d.handoff.triggeredBy !== undefined);
      if (d.handoff.triggeredBy) {
        expect(sorted(d.handoff.triggeredBy)).toBe(true);
        for (const t of d.handoff.triggeredBy) expect(d.reasons).toContain(t);
      }
      if (d.handoff.routes) expect(d.handoff.routes.length > 0, String(c.id)).toBe(d.handoff.state === 'requested');
    }
  });

  it('covers every operator, every error class in both phases, both selectors, every disposition kind and every handoff shape', () => {
    const packs = new Map<string, string>();
    for (const c of evalCases)
      packs.set(c.pack as string, readFileSync(join(CORPUS, 'evaluation', c.pack as string), 'utf8'));
    const text = [...packs.values()].join('\n');
    for (const op of [
      'equals',
      'not-equals',
      'greater-than',
      'greater-than-or-equal',
      'less-than',
      'less-than-or-equal',
      'in',
    ])
      expect(text).toContain(`"operator": "${op}"`);
    for (const op of ['literal', 'all', 'any', 'not', 'fact', 'evidence-present'])
      expect(text).toContain(`"op": "${op}"`);
    expect(text).toContain('"specVersion": "0.2.0-draft"');
    expect(text).toContain('"profile": "extended"');
    const errors = new Set(
      evalCases.filter((c) => c.expectedErrorClass).map((c) => `${c.expectedErrorClass}/${c.expectedErrorPhase}`),
    );
    expect([...errors].sort()).toEqual([
      'malformed-input/preflight',
      'pack-not-conformant/preflight',
      'resource-exhaustion/evaluation',
      'unsupported-required-extension/preflight',
    ]);
    const ds = evalCases
      .map((c) => c.expectedDisposition as { kind: string; handoff: { state: string; routes?: unknown[] } } | undefined)
      .filter((d) => d !== undefined);
    expect(new Set(ds.map((d) => d.kind))).toEqual(new Set(['outcome', 'not-applicable', 'unresolved']));
    expect(ds.some((d) => d.handoff.state === 'requested' && d.handoff.routes === undefined)).toBe(true);
    expect(ds.some((d) => d.handoff.state === 'requested' && (d.handoff.routes?.length ?? 0) > 0)).toBe(true);
    expect(ds.some((d) => d.handoff.state === 'none' && d.handoff.routes?.length === 0)).toBe(true);
    const ids = evalCases.map((c) => String(c.id));
    for (const prefix of [
      'rfc0006-instance-1',
      'rfc0006-instance-7a',
      'rfc0006-instance-7b',
      'permutation-',
      'hostile-',
      'proto-',
      'budget-',
      'legacy-',
      'profile-',
    ])
      expect(
        ids.some((i) => i.startsWith(prefix)),
        prefix,
      ).toBe(true);
    const docClasses = new Set(docCases.map((c) => c.expectedClass));
    for (const cls of ['valid', 'carrier', 'structural', 'semantic']) expect(docClasses.has(cls)).toBe(true);
  });

  it('pairs every budget boundary: the budget equal to the charge answers, one unit less is resource-exhaustion', () => {
    const at = evalCases.filter((c) => String(c.id).endsWith('-at-budget'));
    expect(at.length).toBeGreaterThanOrEqual(20);
    for (const c of at) {
      expect('expectedDisposition' in c, String(c.id)).toBe(true);
      const below = evalCases.find((d) => d.id === String(c.id).replace(/-at-budget$/, '-one-below'));
      if (below === undefined) continue; // the two rows whose charge is 0 or 1 have no valid lower budget
      expect(below.workBudget).toBe((c.workBudget as number) - 1);
      expect(below.expectedErrorClass).toBe('resource-exhaustion');
      expect(below.expectedErrorPhase).toBe('evaluation');
    }
  });
});

describe('the runner', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'docket-corpus-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('fails a case whose expectation is wrong, in both suites, and says what happened', () => {
    cpSync(CORPUS, join(tmp, 'conformance'), { recursive: true });
    const ev = manifest('evaluation');
    const flipped = ev.cases.find((c: { id: string }) => c.id === 'step8-conflict');
    flipped.expectedDisposition = { kind: 'outcome', outcomeId: 'yes', reasons: [], handoff: { state: 'none' } };
    const err = ev.cases.find((c: { id: string }) => c.id === 'error-facts-duplicate');
    err.expectedErrorPhase = 'evaluation';
    writeFileSync(join(tmp, 'conformance', 'evaluation', 'manifest.json'), JSON.stringify(ev));
    const doc = manifest('document');
    doc.cases.find((c: { id: string }) => c.id === 'carrier-empty').expectedClass = 'structural';
    writeFileSync(join(tmp, 'conformance', 'document', 'manifest.json'), JSON.stringify(doc));
    const report = runCorpus({ root: tmp, only: 'e' });
    const failedIds = report.results
      .filter((r) => !r.passed)
      .map((r) => r.id)
      .sort();
    expect(failedIds).toEqual(['carrier-empty', 'error-facts-duplicate', 'step8-conflict']);
    const conflict = report.results.find((r) => r.id === 'step8-conflict');
    expect(conflict?.actual).toContain('"reasons":["conflict"]');
  });
});

describe('every corpus case', () => {
  const plain = runCorpus({ root: ROOT });
  const strict = runCorpus({ root: ROOT, strict: true, suite: 'document' });
  it.each(plain.results.map((r) => [`${r.suite}/${r.id}`, r] as const))('passes: %s', (_name, r) => {
    expect(r.passed, `${r.description}\nexpected: ${r.expected}\nactual:   ${r.actual}`).toBe(true);
  });
  it.each(strict.results.map((r) => [`${r.suite}/${r.id}`, r] as const))('passes under --strict: %s', (_name, r) => {
    expect(r.passed, `${r.description}\nexpected: ${r.expected}\nactual:   ${r.actual}`).toBe(true);
  });
});
