/**
 * The streamed `docket evaluate --batch` (ADR 0200): byte-identical to the whole-input implementation it replaced
 * (test/cli/batch-oracle.ts) on a corpus of awkward lines however the input is cut into chunks; waits for a full
 * stdout to drain; and stops quietly on a closed pipe with the lines written so far.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../bench/support/seeded-prng.js';
import { TRIAGE_EVIDENCE, triageFacts } from '../../bench/support/triage-facts.js';
import { FLUSH_CHARS } from '../../cli/batch/stream-batch.js';
import { memoryIo, type CliIo } from '../../cli/io.js';
import { main } from '../../cli/main.js';
import { oracleBatch } from './batch-oracle.js';
import { ensureBuilt, EX, lines, ROOT, TRIAGE } from './helpers.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const MiB = 1_048_576;

function concat(parts: (string | Uint8Array)[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? enc.encode(p) : p))));
}

/** Lines a batch can hold, each ending in LF unless said otherwise. */
function awkwardLines(): (string | Uint8Array)[] {
  const good = '{"facts":{"request":{"type":"data-access","completeness":"complete","appropriateness":"pass"}}}';
  const nested = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const padTo = (n: number): string => {
    const head = '{"facts":{"request":{"type":"media-inquiry"}}}';
    return head + ' '.repeat(n - head.length);
  };
  return [
    good,
    '',
    '   ',
    'not json',
    '[1,2]',
    '"facts"',
    '{"facts":{},"extra":1}',
    '{"evidence":{}}',
    '{"facts":{},"workBudget":1.5}',
    '{"facts":{},"workBudget":0}',
    '{"facts":{},"workBudget":-1}',
    '{"facts":{},"workBudget":1e3}',
    '{"facts":{},"workBudget":"250"}',
    '{"facts":{},"workBudget":9007199254740993}',
    `${good.slice(0, -1)},"workBudget":1}`,
    `${good.slice(0, -1)},"workBudget":250}`,
    '{"facts":{"a":1,"a":2}}',
    '{"facts":1,"facts":2}',
    '{"facts":1,"x":{"a":1,"a":1}}',
    '{"facts":{"request":{"type":"data-access"}},"evidence":[1]}',
    '{"facts":{"request":{"type":"data-access"}},"evidence":{"nope":"present"}}',
    '{"facts":{"request":{"type":"data-access"}},"evidence":{"intake-form":"yes"}}',
    '{"facts":{"request":{"type":"data-access"}},"evidence":{"intake-form":"present","intake-form":"absent"}}',
    '{"facts":{"v":"\\ud800"}}',
    '{"facts":{"v":"\\udc00x"},"evidence":{"intake-form":"present"}}',
    '{"facts":{},"evidence":{"\\ud800":"present"}}',
    '{"facts":{},"x":"\\ud800"}',
    '{"\\ud800":1}',
    '{"facts":{"v":"\\ud83d\\ude00"}}',
    '{"f\\u0061cts":{"request":{"type":"data-access"}}}',
    ' \t{ "facts" : { "request" : { "type" : "media-inquiry" } } , "evidence" : { } } \t',
    `${good}\r`,
    `${good}\r\r`,
    concat(['\u{feff}', good]),
    concat(['{"facts":{"v":"', new Uint8Array([0xff, 0xfe]), '"}}']),
    concat(['{"facts":{"v":"', new Uint8Array([0xc3]), '"}}']),
    '{"facts":{"request":{"type":"données","requester":{"name":"Zoë 😀"}}}}',
    `{"facts":${nested(62)}}`,
    `{"facts":${nested(63)}}`,
    `{"facts":${nested(64)}}`,
    `{"facts":{"n":${'9'.repeat(4096)}}}`,
    `{"facts":{"n":${'9'.repeat(4097)}}}`,
    `{"facts":{"s":"${'x'.repeat(MiB)}"}}`,
    `{"facts":{"s":"${'x'.repeat(MiB + 1)}"}}`,
    padTo(2 * MiB),
    padTo(2 * MiB + 1),
    `{"facts":{"s":"${'y'.repeat(5 * MiB)}"}}`,
    '{"facts":1} x',
    '{"facts":1}{}',
    '{"facts":{"request":',
    good,
  ];
}

function seededLines(n: number): string[] {
  const r = prng(7);
  return Array.from({ length: n }, (_, i) => {
    const ev = TRIAGE_EVIDENCE[i % TRIAGE_EVIDENCE.length]!;
    return `{"facts":${dec.decode(triageFacts(r))}${i % 7 === 0 ? '' : `,"evidence":${dec.decode(ev)}`}}`;
  });
}

function corpus(options: { huge: boolean; finalNewline: boolean }): Uint8Array {
  const all = [...awkwardLines(), ...seededLines(300)].filter(
    (l) => options.huge || (typeof l === 'string' ? l.length : l.length) < 1_000_000,
  );
  const parts: (string | Uint8Array)[] = [];
  all.forEach((l, i) => {
    parts.push(l);
    if (options.finalNewline || i < all.length - 1) parts.push('\n');
  });
  return concat(parts);
}

/** Runs the CLI in-process with stdin served in chunks of `size` bytes. */
async function streamed(argv: string[], input: Uint8Array, size: number) {
  const io = memoryIo();
  const chunked: CliIo = {
    ...io,
    stdinChunks: async function* () {
      for (let i = 0; i < input.length; i += size) yield input.subarray(i, i + size);
    },
  };
  const code = await main(argv, chunked);
  return { code, out: io.out(), err: io.err() };
}

const packBytes = (p: string) => new Uint8Array(readFileSync(p));

describe('the streamed batch is byte-identical to the whole-input batch', () => {
  const cases: { name: string; pack: string; extra: string[]; ext: string[]; budget?: number }[] = [
    { name: 'the triage pack (0.3.0)', pack: TRIAGE, extra: [], ext: [] },
    {
      name: 'the triage pack with --work-budget 300',
      pack: TRIAGE,
      extra: ['--work-budget', '300'],
      ext: [],
      budget: 300,
    },
    {
      name: 'a 0.2.0-draft pack (lone surrogates admitted)',
      pack: join(EX, 'legacy-expense-approval-0.2.0-draft.json'),
      extra: [],
      ext: [],
    },
    {
      name: 'a pack requiring an extension, unsupported',
      pack: join(EX, 'requires-extension.json'),
      extra: [],
      ext: [],
    },
  ];
  for (const c of cases) {
    it(`on ${c.name}, for huge, malformed, blank, CRLF and unterminated lines, whatever the chunk size`, async () => {
      const argv = ['evaluate', '--pack', c.pack, '--batch', '-', ...c.extra];
      for (const finalNewline of [true, false]) {
        const input = corpus({ huge: true, finalNewline });
        const expected = oracleBatch(packBytes(c.pack), input, { extensions: new Set(c.ext), workBudget: c.budget });
        expect(lines(expected.out).length).toBeGreaterThan(300);
        for (const size of [input.length, 65_536, 4093]) {
          const got = await streamed(argv, input, size);
          expect(got.out).toBe(expected.out);
          expect(got.code).toBe(expected.code);
        }
      }
      const small = corpus({ huge: false, finalNewline: false });
      const expected = oracleBatch(packBytes(c.pack), small, { extensions: new Set(c.ext), workBudget: c.budget });
      expect((await streamed(argv, small, 7)).out).toBe(expected.out);
    }, 120_000);
  }

  it('on a pack that is not conformant: one pack error per line, and exit 0 for an empty batch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docket-batch-'));
    try {
      const pack = join(dir, 'bad.json');
      writeFileSync(pack, '{"specVersion":"0.3.0"}');
      const input = corpus({ huge: true, finalNewline: true });
      const expected = oracleBatch(packBytes(pack), input, { extensions: new Set(), workBudget: undefined });
      const got = await streamed(['evaluate', '--pack', pack, '--batch', '-'], input, 65_536);
      expect(got.out).toBe(expected.out);
      expect(got.code).toBe(2);
      const empty = await streamed(['evaluate', '--pack', pack, '--batch', '-'], new Uint8Array(), 10);
      expect(empty).toMatchObject({ code: 0, out: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('backpressure', () => {
  it('reads no further input while stdout is full, and writes in blocks of bounded size', async () => {
    const line = '{"facts":{"request":{"type":"media-inquiry"}}}\n';
    const chunk = enc.encode(line.repeat(1000));
    let pulled = 0;
    let release: () => void = () => undefined;
    let blocked = true;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let full: () => void = () => undefined;
    const sinkFull = new Promise<void>((resolve) => (full = resolve));
    const writes: number[] = [];
    const io: CliIo = {
      ...memoryIo(),
      stdout: (c) => void writes.push(c.length),
      stdinChunks: async function* () {
        for (let i = 0; i < 100; i++) {
          pulled++;
          yield chunk;
        }
      },
      stdoutDrained: () => {
        if (!blocked) return undefined;
        full();
        return gate;
      },
    };
    const run = main(['evaluate', '--pack', TRIAGE, '--batch', '-'], io);
    // Once the sink reports itself full, a reader that does not wait for it would pull more within this pause; a
    // fixed pause alone failed on a loaded machine, before the first chunk was even read.
    await sinkFull;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pulled).toBe(1); // the first chunk's answers were written; the sink is full, so nothing more is read
    expect(writes.length).toBeGreaterThan(0);
    blocked = false;
    release();
    expect(await run).toBe(0);
    expect(pulled).toBe(100);
    const resultLine = `{"disposition":{"handoff":{"routes":[],"state":"none"},"kind":"not-applicable","reasons":["not-applicable"]},"work":57}\n`;
    expect(writes.reduce((a, b) => a + b, 0)).toBe(100_000 * resultLine.length);
    for (const w of writes) expect(w).toBeLessThan(FLUSH_CHARS + resultLine.length);
  });
});

describe('a batch from a file, through the real process', () => {
  let dir: string;
  let file: string;
  let oracle: { out: string; code: number } | undefined;
  /** The whole-input batch's answers to the file, computed once for the tests below. */
  const expected = () =>
    (oracle ??= oracleBatch(packBytes(TRIAGE), packBytes(file), { extensions: new Set(), workBudget: undefined }));
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'docket-batch-'));
    file = join(dir, 'batch.jsonl');
    writeFileSync(file, `${seededLines(20_000).join('\n')}\n`);
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every line of a file exactly as the whole-input batch did', () => {
    const r = spawnSync(process.execPath, ['bin/docket.js', 'evaluate', '--pack', TRIAGE, '--batch', file], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * MiB,
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(expected().out);
    expect(r.status).toBe(expected().code);
  });

  it('ends quietly on a closed pipe, with status 141 and the lines written so far', () => {
    const script = `"${process.execPath}" bin/docket.js evaluate --pack "${TRIAGE}" --batch "${file}" | head -n 3; echo "status \${PIPESTATUS[0]}" >&2`;
    const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr.trim()).toBe('status 141');
    expect(lines(r.stdout)).toEqual(lines(expected().out).slice(0, 3));
  });

  it('reports a batch file that does not exist before writing anything (exit 66)', () => {
    const r = spawnSync(
      process.execPath,
      ['bin/docket.js', 'evaluate', '--pack', TRIAGE, '--batch', join(dir, 'nope')],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(66);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no such file');
  });
});
