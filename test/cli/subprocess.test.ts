import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { docket, ensureBuilt, lines, REQ, TRIAGE } from './helpers.js';

// The CLI as users and other tools run it: `node bin/docket.js …` over the built dist/.
describe('docket as a subprocess', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it('exits 0 and prints one canonical line for a disposition', () => {
    const r = docket([
      'evaluate',
      '--pack',
      TRIAGE,
      '--facts',
      join(REQ, 'triage-instance-1-not-applicable.facts.json'),
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^\{"disposition":\{"handoff":\{"routes":\[\],"state":"none"\},"kind":"not-applicable","reasons":\["not-applicable"\]\},"work":\d+\}\n$/,
    );
    expect(r.err).toBe('');
  });

  it('exits 2 with one error line for an evaluation error', () => {
    const r = docket(['evaluate', '--pack', TRIAGE, '--facts', '-'], '{"request":');
    expect(r.code).toBe(2);
    expect(lines(r.out)).toHaveLength(1);
    expect(JSON.parse(r.out).error).toMatchObject({ class: 'malformed-input', phase: 'preflight' });
  });

  it('reads the batch from stdin and answers every line in order', () => {
    const r = docket(
      ['evaluate', '--pack', TRIAGE, '--batch', '-'],
      '{"facts":{"request":{"type":"x"}}}\nnope\n{"facts":{"request":{"type":"y"}}}\n',
    );
    const out = lines(r.out);
    expect(out).toHaveLength(3);
    expect(JSON.parse(out[0] as string).disposition.kind).toBe('not-applicable');
    expect(JSON.parse(out[1] as string).error.code).toBe('batch-line-not-json');
    expect(JSON.parse(out[2] as string).disposition.kind).toBe('not-applicable');
    expect(r.code).toBe(2);
  });

  it('exits 64 with the message on stderr and nothing on stdout for a usage error', () => {
    const r = docket(['evaluate', '--pack', '-', '--facts', '-']);
    expect(r.code).toBe(64);
    expect(r.out).toBe('');
    expect(r.err).toContain('only one input may be "-"');
  });

  it('exits 64 for an unknown command', () => {
    const r = docket(['nonsense']);
    expect(r.code).toBe(64);
    expect(r.err).toContain('unknown command');
  });

  it('validates with --json and exits 1 for a non-conformant pack', () => {
    const r = docket(['validate', '-', '--json'], '{"specVersion":"9"}');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ conformant: false, class: 'structural' });
  });

  it('runs the conformance corpus, ends with "N passed, M failed" alone on the last line, and exits 0 iff all pass', () => {
    const r = docket(['conformance', '--quiet']);
    const last = lines(r.out).at(-1) as string;
    const m = /^(\d+) passed, (\d+) failed$/.exec(last);
    expect(m).not.toBeNull();
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(230);
    expect(r.code).toBe(Number(m?.[2]) === 0 ? 0 : 1);
  }, 120_000);
});
