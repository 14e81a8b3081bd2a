/**
 * `docket test` runs a project's declared pack matrices and graph rows: the runtime's own example project and its
 * onboarding.rows.json unchanged (3/3), one entry by name, a failing case with its first difference, a pack matrix
 * by the runtime's rules, and the exit statuses (0 only when every case passes).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, EX } from './helpers.js';

const RUNTIME = join(EX, 'runtime-project');
const CONFIG = join(RUNTIME, 'jpack.json');

interface Report {
  status: string;
  passed: number;
  failed: number;
  suites: {
    kind: string;
    name: string;
    status: string;
    digest?: string;
    cases: {
      id: string;
      passed: boolean;
      difference?: { subject: string; pointer: string; expected: unknown; actual: unknown };
    }[];
  }[];
}

const report = (out: string): Report => JSON.parse(out) as Report;

function copy(edit: (dir: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'docket-test-'));
  cpSync(RUNTIME, dir, { recursive: true });
  edit(dir);
  return join(dir, 'jpack.json');
}

const editJson = (path: string, f: (x: Record<string, unknown>) => void): void => {
  const x = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  f(x);
  writeFileSync(path, JSON.stringify(x));
};

const CLEAR = { kind: 'outcome', outcomeId: 'clear', reasons: [], handoff: { state: 'none' } };

describe('docket test', () => {
  it('runs the runtime example project unchanged: onboarding 3/3, the packs skipped as they declare no matrix, exit 0', async () => {
    const r = await cli(['test', '--config', CONFIG]);
    const rep = report(r.out);
    expect(r.code).toBe(0);
    expect([rep.status, rep.passed, rep.failed]).toEqual(['passed', 3, 0]);
    expect(rep.suites.map((s) => [s.kind, s.name, s.status])).toEqual([
      ['pack', 'sanctions-screening', 'skipped'],
      ['pack', 'vendor-onboarding', 'skipped'],
      ['graph', 'onboarding', 'passed'],
    ]);
    expect(rep.suites[2]!.cases.map((c) => c.id)).toEqual([
      'clear-approves',
      'match-declines',
      'unresolved-screening-escalates',
    ]);
    expect(rep.suites[2]!.digest).toBe('sha256:5ae40d1d3c3b062d1a9ac8c7cf8330b67d34807fe17feaed2e956468a8298745');
    expect(r.err).toMatch(/graph onboarding \(onboarding\.rows\.json\): 3\/3 passed\n3\/3 cases passed\n$/);
  });

  it('runs one entry by name, and refuses a name the project does not declare (exit 3)', async () => {
    const one = report((await cli(['test', '--config', CONFIG, '--graph', 'onboarding'])).out);
    expect(one.suites.map((s) => s.name)).toEqual(['onboarding']);
    expect((await cli(['test', '--config', CONFIG, '--graph', 'nope'])).code).toBe(3);
    expect((await cli(['test', '--config', CONFIG, '--pack', 'a', '--graph', 'b'])).code).toBe(3);
  });

  it('fails a row whose expectation differs, exit 1, naming the case and its first difference', async () => {
    const c = copy((d) =>
      editJson(join(d, 'onboarding.rows.json'), (x) => {
        const cases = x.cases as Record<string, unknown>[];
        (cases[1]!.expectedDisposition as Record<string, unknown>).outcomeId = 'approve';
      }),
    );
    const r = await cli(['test', '--config', c]);
    const rep = report(r.out);
    expect([r.code, rep.status, rep.passed, rep.failed]).toEqual([1, 'failed', 2, 1]);
    expect(rep.suites[2]!.cases[1]).toEqual({
      id: 'match-declines',
      passed: false,
      difference: { subject: 'disposition', pointer: '/outcomeId', expected: 'approve', actual: 'decline' },
    });
    expect(r.err).toContain('FAIL match-declines: disposition/outcomeId expected "approve", got "decline"');
  });

  it('checks expectedNodes, naming the node that differs', async () => {
    const c = copy((d) =>
      editJson(join(d, 'onboarding.rows.json'), (x) => {
        const cases = x.cases as Record<string, unknown>[];
        cases[0]!.expectedNodes = { screening: { ...CLEAR, outcomeId: 'hit' } };
      }),
    );
    const rep = report((await cli(['test', '--config', c])).out);
    expect(rep.suites[2]!.cases[0]!.difference).toMatchObject({ subject: 'nodes/screening', pointer: '/outcomeId' });
  });

  it('never matches a refusal without a class: an invocation refusal fails an error-class row', async () => {
    const c = copy((d) =>
      editJson(join(d, 'onboarding.rows.json'), (x) => {
        x.cases = [
          {
            id: 'collides',
            inputs: { onboarding: { facts: { screening: { status: 'x' } } } },
            expectedErrorClass: 'malformed-input',
          },
        ];
      }),
    );
    const rep = report((await cli(['test', '--config', c])).out);
    expect(rep.suites[2]!.cases[0]).toMatchObject({
      passed: false,
      difference: { subject: 'error', pointer: '/class', actual: null },
    });
  });

  it('matches a node refusal by its class alone when the row names no phase, and by both when it does', async () => {
    const refused = { screening: { facts: {}, evidence: { nope: 'present' } } };
    const c = copy((d) =>
      editJson(join(d, 'onboarding.rows.json'), (x) => {
        x.cases = [
          { id: 'class-only', inputs: refused, expectedErrorClass: 'malformed-input' },
          {
            id: 'class-and-phase',
            inputs: refused,
            expectedErrorClass: 'malformed-input',
            expectedErrorPhase: 'preflight',
          },
          {
            id: 'wrong-phase',
            inputs: refused,
            expectedErrorClass: 'malformed-input',
            expectedErrorPhase: 'evaluation',
          },
        ];
      }),
    );
    const cases = report((await cli(['test', '--config', c, '--graph', 'onboarding'])).out).suites[0]!.cases;
    expect(cases.map((x) => [x.id, x.passed])).toEqual([
      ['class-only', true],
      ['class-and-phase', true],
      ['wrong-phase', false],
    ]);
    expect(cases[2]!.difference).toEqual({
      subject: 'error',
      pointer: '/phase',
      expected: 'evaluation',
      actual: 'preflight',
    });
  });

  it("runs a pack's matrix by the runtime's rules: dispositions, handoff targets under matrixVersion 2, error classes", async () => {
    const c = copy((d) => {
      editJson(join(d, 'jpack.json'), (x) => {
        (x.packs as Record<string, Record<string, unknown>>)['sanctions-screening']!.matrix = 'screening.matrix.json';
      });
      writeFileSync(
        join(d, 'screening.matrix.json'),
        JSON.stringify({
          matrixVersion: '2',
          cases: [
            {
              id: 'clear',
              facts: { screening: { matches: '0' } },
              evidenceAvailability: { 'screening-record': 'present' },
              expectedDisposition: CLEAR,
              expectedHandoffTarget: null,
            },
            {
              id: 'unknown-escalates',
              origin: 'hand-written',
              facts: {},
              evidenceAvailability: { 'screening-record': 'present' },
              expectedDisposition: {
                kind: 'unresolved',
                reasons: ['unknown'],
                handoff: { state: 'requested', triggeredBy: ['unknown'] },
              },
              expectedHandoffTarget: { kind: 'human-role', name: 'Compliance' },
            },
            {
              id: 'bad-evidence',
              facts: {},
              evidenceAvailability: { nope: 'present' },
              expectedErrorClass: 'malformed-input',
              expectedErrorPhase: 'preflight',
            },
            {
              id: 'bad-evidence-any-phase',
              facts: {},
              evidenceAvailability: { nope: 'present' },
              expectedErrorClass: 'malformed-input',
            },
            {
              id: 'bad-evidence-wrong-phase',
              facts: {},
              evidenceAvailability: { nope: 'present' },
              expectedErrorClass: 'malformed-input',
              expectedErrorPhase: 'evaluation',
            },
            {
              id: 'wrong-target',
              facts: {},
              evidenceAvailability: { 'screening-record': 'present' },
              expectedDisposition: {
                kind: 'unresolved',
                reasons: ['unknown'],
                handoff: { state: 'requested', triggeredBy: ['unknown'] },
              },
              expectedHandoffTarget: null,
            },
          ],
        }),
      );
    });
    const r = await cli(['test', '--config', c, '--pack', 'sanctions-screening']);
    const s = report(r.out).suites[0]!;
    expect(s.cases.map((x) => [x.id, x.passed])).toEqual([
      ['clear', true],
      ['unknown-escalates', true],
      ['bad-evidence', true],
      ['bad-evidence-any-phase', true],
      ['bad-evidence-wrong-phase', false],
      ['wrong-target', false],
    ]);
    expect(s.cases[4]!.difference).toEqual({
      subject: 'error',
      pointer: '/phase',
      expected: 'evaluation',
      actual: 'preflight',
    });
    expect(s.cases[5]!.difference).toMatchObject({
      subject: 'handoffTarget',
      expected: null,
      actual: { kind: 'human-role', name: 'Compliance' },
    });
    expect(r.code).toBe(1);
  });

  it('refuses a matrix that is not one before any case runs: unknown members, a version gate, duplicate ids', async () => {
    const run = async (matrix: unknown) => {
      const c = copy((d) => {
        editJson(join(d, 'jpack.json'), (x) => {
          (x.packs as Record<string, Record<string, unknown>>)['sanctions-screening']!.matrix = 'm.json';
        });
        writeFileSync(join(d, 'm.json'), JSON.stringify(matrix));
      });
      const r = await cli(['test', '--config', c, '--pack', 'sanctions-screening']);
      return [
        r.code,
        report(r.out).suites[0]!.status,
        (report(r.out).suites[0] as { error?: { code: string } }).error?.code,
      ];
    };
    const ok = { id: 'a', facts: {}, expectedDisposition: CLEAR };
    expect(await run({ cases: [{ ...ok, note: 'x' }] })).toEqual([1, 'error', 'matrix-shape']);
    expect(await run({ cases: [{ ...ok, expectedHandoffTarget: null }] })).toEqual([1, 'error', 'matrix-version']);
    expect(await run({ cases: [ok, ok] })).toEqual([1, 'error', 'matrix-shape']);
    expect(await run({ cases: [] })).toEqual([1, 'error', 'matrix-shape']);
    expect(await run({ cases: [{ ...ok, expectedErrorClass: 'malformed-input' }] })).toEqual([
      1,
      'error',
      'matrix-shape',
    ]);
    expect(await run({ matrixVersion: '3', cases: [ok] })).toEqual([1, 'error', 'matrix-version']);
  });

  it('refuses a rows path escaping the project (exit 3) and reports an unreadable one (exit 4)', async () => {
    const escape = copy((d) =>
      editJson(
        join(d, 'jpack.json'),
        (x) => ((x.graphs as Record<string, Record<string, unknown>>).onboarding!.rows = '../r.json'),
      ),
    );
    const r = await cli(['test', '--config', escape]);
    expect([r.code, r.err]).toEqual([3, expect.stringContaining('jpack.json /graphs/onboarding/rows')]);
    const missing = copy((d) =>
      editJson(
        join(d, 'jpack.json'),
        (x) => ((x.graphs as Record<string, Record<string, unknown>>).onboarding!.rows = 'gone.json'),
      ),
    );
    expect((await cli(['test', '--config', missing])).code).toBe(4);
  });
});

describe('the runtime example project through the graph commands', () => {
  const GRAPH = join(RUNTIME, 'onboarding.graph.json');
  it('graph validate: valid, exit 0', async () => {
    const r = await cli(['graph', 'validate', '--config', CONFIG, '--graph', GRAPH]);
    expect([r.code, JSON.parse(r.out)]).toEqual([0, { status: 'valid', diagnostics: [] }]);
  });
  it("graph evaluate of each row's inputs prints its expectedDisposition", async () => {
    const rows = JSON.parse(readFileSync(join(RUNTIME, 'onboarding.rows.json'), 'utf8')) as {
      cases: { id: string; inputs: unknown; expectedDisposition: unknown }[];
    };
    const dir = mkdtempSync(join(tmpdir(), 'docket-rows-'));
    for (const row of rows.cases) {
      const inputs = join(dir, `${row.id}.json`);
      writeFileSync(inputs, JSON.stringify(row.inputs));
      const r = await cli(['graph', 'evaluate', '--config', CONFIG, '--graph', GRAPH, '--inputs', inputs]);
      expect([r.code, (JSON.parse(r.out) as { disposition: unknown }).disposition], row.id).toEqual([
        0,
        row.expectedDisposition,
      ]);
    }
  });
});
