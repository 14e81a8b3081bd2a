import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBatchMembers } from '../../cli/batch/batch-request.js';
import { LineSplitter, type SplitLine } from '../../cli/batch/line-splitter.js';
import { readJson } from '../../core/carrier/index.js';
import { cli, EX, lines, REQ, TRIAGE } from './helpers.js';

// Expected canonical dispositions, worked by hand in examples/README.md from Core §§8–8.3.
const PROCEED = '{"handoff":{"routes":[],"state":"none"},"kind":"outcome","outcomeId":"proceed","reasons":[]}';
const INSTANCE_7A =
  '{"handoff":{"routes":[{"kind":"queue","name":"Intake Desk"},{"kind":"human-role","name":"Oversight"}],"state":"requested","triggeredBy":["missing-required-evidence"]},"kind":"unresolved","reasons":["missing-required-evidence"]}';
const INSTANCE_7B =
  '{"handoff":{"routes":[{"kind":"human-role","name":"Data Steward"},{"kind":"human-role","name":"Oversight"},{"kind":"queue","name":"Intake Desk"}],"state":"requested","triggeredBy":["unknown"]},"kind":"unresolved","reasons":["unknown"]}';
const NOT_APPLICABLE = '{"handoff":{"routes":[],"state":"none"},"kind":"not-applicable","reasons":["not-applicable"]}';
const FACTS = join(REQ, 'triage-complete-appropriate.facts.json');
const ALL_PRESENT = join(REQ, 'triage-all-present.evidence.json');
const read = (p: string) => readFileSync(p, 'utf8');

/** The exact bytes between `{"disposition":` and `,"work":`. */
const dispositionBytes = (line: string): string => {
  const m = /^\{"disposition":(.*),"work":\d+(,"trace":.*)?\}$/.exec(line);
  if (!m) throw new Error(`not a disposition line: ${line}`);
  return m[1] as string;
};

describe('docket evaluate (single)', () => {
  it('prints exactly one line {"disposition", "work"} with the canonical disposition bytes and exits 0', async () => {
    const r = await cli(['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--evidence', ALL_PRESENT]);
    expect(r.code).toBe(0);
    expect(r.out.endsWith('\n')).toBe(true);
    expect(lines(r.out)).toHaveLength(1);
    expect(dispositionBytes(lines(r.out)[0] as string)).toBe(PROCEED);
    const parsed = JSON.parse(r.out);
    expect(Object.keys(parsed)).toEqual(['disposition', 'work']);
    expect(Number.isInteger(parsed.work) && parsed.work > 0).toBe(true);
  });

  it('reproduces RFC 0006 instances 7a and 7b (absent versus omitted sponsor endorsement)', async () => {
    const a = await cli([
      'evaluate',
      '--pack',
      TRIAGE,
      '--facts',
      FACTS,
      '--evidence',
      join(REQ, 'triage-instance-7a.evidence.json'),
    ]);
    const b = await cli([
      'evaluate',
      '--pack',
      TRIAGE,
      '--facts',
      FACTS,
      '--evidence',
      join(REQ, 'triage-instance-7b.evidence.json'),
    ]);
    expect(dispositionBytes(lines(a.out)[0] as string)).toBe(INSTANCE_7A);
    expect(dispositionBytes(lines(b.out)[0] as string)).toBe(INSTANCE_7B);
  });

  it('prints one line {"error": {class, phase, code, message}, "work"} and exits 2 for an evaluation error', async () => {
    const r = await cli([
      'evaluate',
      '--pack',
      join(EX, 'requires-extension.json'),
      '--facts',
      join(REQ, 'volunteer-adult.facts.json'),
    ]);
    expect(r.code).toBe(2);
    expect(lines(r.out)).toHaveLength(1);
    const e = JSON.parse(r.out);
    expect(Object.keys(e)).toEqual(['error', 'work']);
    expect(Object.keys(e.error)).toEqual(['class', 'phase', 'code', 'message']);
    expect(e.error).toMatchObject({ class: 'unsupported-required-extension', phase: 'preflight' });
  });

  it('admits a required extension named with --extension', async () => {
    const r = await cli([
      'evaluate',
      '--pack',
      join(EX, 'requires-extension.json'),
      '--facts',
      join(REQ, 'volunteer-adult.facts.json'),
      '--extension',
      'com.example.consent-policy',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).disposition).toEqual({
      handoff: { state: 'none' },
      kind: 'outcome',
      outcomeId: 'eligible',
      reasons: [],
    });
  });

  it('puts --trace beside the disposition, never inside it, and leaves the disposition bytes unchanged', async () => {
    const plain = await cli(['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--evidence', ALL_PRESENT]);
    const traced = await cli(['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--evidence', ALL_PRESENT, '--trace']);
    const t = JSON.parse(traced.out);
    expect(Object.keys(t)).toEqual(['disposition', 'work', 'trace']);
    expect(dispositionBytes(lines(traced.out)[0] as string)).toBe(dispositionBytes(lines(plain.out)[0] as string));
    expect(t.work).toBe(JSON.parse(plain.out).work);
  });

  it('reads any one input from stdin with "-"', async () => {
    const viaFacts = await cli(['evaluate', '--pack', TRIAGE, '--facts', '-', '--evidence', ALL_PRESENT], read(FACTS));
    const viaPack = await cli(['evaluate', '--pack', '-', '--facts', FACTS, '--evidence', ALL_PRESENT], read(TRIAGE));
    const viaEvidence = await cli(
      ['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--evidence', '-'],
      read(ALL_PRESENT),
    );
    for (const r of [viaFacts, viaPack, viaEvidence]) {
      expect(r.code).toBe(0);
      expect(dispositionBytes(lines(r.out)[0] as string)).toBe(PROCEED);
    }
  });

  it('applies --work-budget: far too small is resource-exhaustion in the evaluation phase', async () => {
    const r = await cli([
      'evaluate',
      '--pack',
      TRIAGE,
      '--facts',
      FACTS,
      '--evidence',
      ALL_PRESENT,
      '--work-budget',
      '3',
    ]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out).error).toMatchObject({ class: 'resource-exhaustion', phase: 'evaluation' });
  });

  it('answers at exactly the work it reports and refuses one unit below', async () => {
    const full = JSON.parse(
      (await cli(['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--evidence', ALL_PRESENT])).out,
    );
    const at = await cli([
      'evaluate',
      '--pack',
      TRIAGE,
      '--facts',
      FACTS,
      '--evidence',
      ALL_PRESENT,
      '--work-budget',
      String(full.work),
    ]);
    const below = await cli([
      'evaluate',
      '--pack',
      TRIAGE,
      '--facts',
      FACTS,
      '--evidence',
      ALL_PRESENT,
      '--work-budget',
      String(full.work - 1),
    ]);
    expect(at.code).toBe(0);
    expect(below.code).toBe(2);
  });

  it('exits 64 with a message on stderr for every usage error', async () => {
    const cases: string[][] = [
      ['evaluate'],
      ['evaluate', '--facts', FACTS],
      ['evaluate', '--pack', TRIAGE],
      ['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--batch', FACTS],
      ['evaluate', '--pack', '-', '--facts', '-'],
      ['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--work-budget', 'many'],
      ['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--work-budget', '0'],
      ['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--work-budget', '1e3'],
      ['evaluate', '--pack', TRIAGE, '--facts', FACTS, '--colour'],
      ['evaluate', '--pack', TRIAGE, '--facts', FACTS, 'extra'],
      ['evaluate', '--pack', TRIAGE, '--batch', FACTS, '--evidence', ALL_PRESENT],
      ['evaluate', '--pack', TRIAGE, '--batch', FACTS, '--trace'],
      ['evaluate', '--pack', '--facts', FACTS],
    ];
    for (const argv of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(64);
      expect(r.out, argv.join(' ')).toBe('');
      expect(r.err, argv.join(' ')).toMatch(/docket evaluate: .+\nusage: /);
    }
  });

  it('exits 66 when an input file cannot be read', async () => {
    const r = await cli(['evaluate', '--pack', TRIAGE, '--facts', join(REQ, 'nope.json')]);
    expect(r.code).toBe(66);
  });
});

describe('docket evaluate --batch', () => {
  const batch = (input: string, extra: string[] = []) =>
    cli(['evaluate', '--pack', TRIAGE, '--batch', '-', ...extra], input);
  const good = '{"facts":{"request":{"type":"media-inquiry"}}}';

  it('prints exactly one result line per input line, in order, including an error line for every bad line', async () => {
    const input =
      [
        good,
        '',
        'not json',
        '[1,2]',
        '{"facts":{},"extra":1}',
        '{"evidence":{}}',
        '{"facts":{},"workBudget":1.5}',
        '{"facts":{},"workBudget":0}',
        '{"facts":{"a":1,"a":2}}',
        '{"facts":{"request":{"type":"data-access"}},"evidence":{"nope":"present"}}',
        good,
      ].join('\n') + '\n';
    const r = await batch(input);
    const out = lines(r.out);
    expect(out).toHaveLength(11);
    expect(r.code).toBe(2);
    expect(dispositionBytes(out[0] as string)).toBe(NOT_APPLICABLE);
    expect(dispositionBytes(out[10] as string)).toBe(NOT_APPLICABLE);
    const codes = out.slice(1, 10).map((l) => JSON.parse(l).error);
    for (const e of codes) expect(e).toMatchObject({ class: 'malformed-input', phase: 'preflight' });
    expect(codes.map((e) => e.code).slice(0, 7)).toEqual([
      'batch-line-not-json',
      'batch-line-not-json',
      'batch-line-not-object',
      'batch-line-unknown-member',
      'batch-line-missing-facts',
      'batch-line-work-budget',
      'batch-line-work-budget',
    ]);
  });

  it('exits 0 when every line yields a disposition, and treats a final newline as the end of the last line', async () => {
    const r = await batch(`${good}\n${good}\n`);
    expect(r.code).toBe(0);
    expect(lines(r.out)).toHaveLength(2);
    const noNewline = await batch(`${good}\n${good}`);
    expect(lines(noNewline.out)).toHaveLength(2);
  });

  it('accepts CRLF line endings (CR is JSON whitespace)', async () => {
    const r = await batch(`${good}\r\n${good}\r\n`);
    expect(r.code).toBe(0);
    expect(lines(r.out)).toHaveLength(2);
  });

  it('evaluates each line exactly as the same facts and evidence would evaluate as files', async () => {
    const facts = read(FACTS).trim();
    const single = await cli([
      'evaluate',
      '--pack',
      TRIAGE,
      '--facts',
      FACTS,
      '--evidence',
      join(REQ, 'triage-instance-7a.evidence.json'),
    ]);
    const r = await batch(
      `{"facts":${facts},"evidence":${read(join(REQ, 'triage-instance-7a.evidence.json')).trim()}}\n`,
    );
    expect(lines(r.out)[0]).toBe(lines(single.out)[0]);
  });

  it('uses the exact source slice of "facts", so a padded number lexeme is charged as written (ADR 0042)', async () => {
    const pack = JSON.stringify({
      specVersion: '0.3.0',
      id: 'urn:x:n',
      version: '1.0.0',
      title: 'N',
      decision: { intent: 'i', question: 'q' },
      outcomes: [
        { id: 'one', label: 'One' },
        { id: 'other', label: 'Other' },
      ],
      rules: [
        {
          id: 'r1',
          description: 'd',
          when: { op: 'fact', path: '/n', operator: 'equals', value: 1 },
          outcome: 'one',
          onUnknown: 'ignore',
        },
      ],
      fallbackOutcome: 'other',
    });
    const dir = mkdtempSync(join(tmpdir(), 'docket-batch-'));
    try {
      const packFile = join(dir, 'pack.json');
      writeFileSync(packFile, pack);
      writeFileSync(join(dir, 'padded.json'), '{"n":1.0000}');
      const compact = await cli(['evaluate', '--pack', packFile, '--batch', '-'], '{"facts":{"n":1}}\n');
      const padded = await cli(['evaluate', '--pack', packFile, '--batch', '-'], '{"facts":{"n":1.0000}}\n');
      const single = await cli(['evaluate', '--pack', packFile, '--facts', join(dir, 'padded.json')]);
      // RFC 0008: V(selected) is 1 + the token's bytes; "1.0000" is 5 bytes longer than "1". 1.0000 still equals 1.
      expect(JSON.parse(padded.out).work - JSON.parse(compact.out).work).toBe(5);
      expect(lines(padded.out)[0]).toBe(lines(single.out)[0]);
      expect(JSON.parse(padded.out).disposition.outcomeId).toBe('one');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lets a line's workBudget override --work-budget", async () => {
    const r = await batch(`${good}\n{"facts":{"request":{"type":"media-inquiry"}},"workBudget":1000}\n`, [
      '--work-budget',
      '1',
    ]);
    const out = lines(r.out);
    expect(JSON.parse(out[0] as string).error.class).toBe('resource-exhaustion');
    expect(dispositionBytes(out[1] as string)).toBe(NOT_APPLICABLE);
  });

  it('reports pack-not-conformant on every line when the pack is not conformant, whatever the lines hold', async () => {
    const r = await cli(
      ['evaluate', '--pack', '-', '--batch', join(REQ, 'triage-batch.jsonl')],
      '{"specVersion":"0.3.0"}',
    );
    const out = lines(r.out);
    expect(out).toHaveLength(10);
    for (const l of out)
      expect(JSON.parse(l).error).toMatchObject({ class: 'pack-not-conformant', phase: 'preflight' });
    expect(r.code).toBe(2);
  });

  it("leaves a lone surrogate in facts to the pack's carrier: refused for a 0.3.0 pack, admitted for a 0.2.0-draft pack (ADR 0030)", async () => {
    const line = '{"facts":{"claim":{"amount":"10.00","category":"\\ud800"}},"evidence":{"receipt":"present"}}\n';
    const legacy = await cli(
      ['evaluate', '--pack', join(EX, 'legacy-expense-approval-0.2.0-draft.json'), '--batch', '-'],
      line,
    );
    expect(JSON.parse(legacy.out).disposition).toEqual({
      handoff: { state: 'none' },
      kind: 'outcome',
      outcomeId: 'approve',
      reasons: [],
    });
    const current = await cli(
      ['evaluate', '--pack', join(EX, 'vendor-onboarding-target.json'), '--batch', '-'],
      '{"facts":{"v":"\\ud800"}}\n',
    );
    const single = await cli(
      ['evaluate', '--pack', join(EX, 'vendor-onboarding-target.json'), '--facts', '-'],
      '{"v":"\\ud800"}',
    );
    expect(JSON.parse(current.out).error).toEqual(JSON.parse(single.out).error);
    expect(JSON.parse(current.out).error.class).toBe('malformed-input');
  });

  it('answers the example batch file line for line', async () => {
    const r = await cli(['evaluate', '--pack', TRIAGE, '--batch', join(REQ, 'triage-batch.jsonl')]);
    const out = lines(r.out);
    expect(out).toHaveLength(10);
    expect(dispositionBytes(out[0] as string)).toBe(PROCEED);
    expect(dispositionBytes(out[1] as string)).toBe(INSTANCE_7A);
    expect(dispositionBytes(out[2] as string)).toBe(INSTANCE_7B);
    expect(dispositionBytes(out[3] as string)).toBe(NOT_APPLICABLE);
    expect(JSON.parse(out[7] as string).error.class).toBe('malformed-input');
    expect(JSON.parse(out[8] as string).error.code).toBe('batch-line-not-json');
    expect(JSON.parse(out[9] as string).error).toMatchObject({ class: 'resource-exhaustion', phase: 'evaluation' });
  });
});

describe('batch line reading', () => {
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const split = (chunks: string[], max = 1024): string[] => {
    const splitter = new LineSplitter(max);
    const out: string[] = [];
    const take = (l: SplitLine) => out.push(l.kind === 'line' ? dec.decode(l.bytes) : `<oversize ${l.length}>`);
    for (const c of chunks) {
      splitter.feed(enc.encode(c));
      for (let l = splitter.next(); l !== undefined; l = splitter.next()) take(l);
    }
    const last = splitter.end();
    if (last !== undefined) take(last);
    return out;
  };

  it('splits on LF only, keeping blank lines and dropping nothing but the final terminator', () => {
    expect(split(['a\n\nb\n'])).toEqual(['a', '', 'b']);
    expect(split([''])).toEqual([]);
    expect(split(['\n'])).toEqual(['']);
    expect(split(['a\r\nb'])).toEqual(['a\r', 'b']);
  });

  it('joins a line cut across chunks, wherever the cuts fall', () => {
    expect(split(['{"fa', 'cts":', '1}\n{"f', 'acts":2}'])).toEqual(['{"facts":1}', '{"facts":2}']);
    expect(split(['ab', '', 'c', '\n', '\nd'])).toEqual(['abc', '', 'd']);
  });

  it('reports a line longer than the limit by its length only, however the chunks fall', () => {
    expect(split(['x'.repeat(5), 'x'.repeat(6), 'y\nok\n'], 10)).toEqual(['<oversize 12>', 'ok']);
    expect(split(['x'.repeat(10), '\n', 'x'.repeat(11)], 10)).toEqual(['x'.repeat(10), '<oversize 11>']);
  });

  it("checks a line's members in order and keeps the facts tree with its lexemes", () => {
    const members = (text: string) => {
      const r = readJson(enc.encode(text));
      if (!r.ok) throw new Error('test line must parse');
      return checkBatchMembers(r.value);
    };
    const ok = members('{"facts":{"n":1.000},"workBudget":250}');
    if ('error' in ok) throw new Error('expected members');
    expect(ok.workBudget).toBe(250);
    expect(ok.evidence).toBeUndefined();
    expect(ok.facts.kind === 'object' && ok.facts.members.get('n')).toMatchObject({ lexeme: '1.000' });
    const code = (text: string) => {
      const r = members(text);
      return 'error' in r ? r.error.code : 'ok';
    };
    expect(code('[1]')).toBe('batch-line-not-object');
    expect(code('{"workBudget":0,"x":1}')).toBe('batch-line-unknown-member');
    expect(code('{"workBudget":0}')).toBe('batch-line-missing-facts');
    expect(code('{"facts":1,"workBudget":1e3}')).toBe('batch-line-work-budget');
    expect(code('{"facts":1,"workBudget":9007199254740993}')).toBe('batch-line-work-budget');
  });
});
