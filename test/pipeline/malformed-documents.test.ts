/**
 * A facts or evidence document that is not a strict JSON text, inside an otherwise readable request, is recorded as
 * the same `malformed-input` evaluation error `docket evaluate` gives for those bytes (ADR 0176), and replay
 * reproduces the entry. Every malformed-input row of the evaluation corpus runs through both paths.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as evaluate } from '../../cli/commands/evaluate.js';
import { readRequest } from '../../core/admission/index.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { capMessage } from '../../core/ledger/entries/entry.js';
import { processRequest } from '../../core/pipeline/process-request.js';
import { replayContext } from '../../core/replay/replay-context.js';
import { replayStoredEntry } from '../../core/replay/replay-entry.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { enc, hex, world } from '../replay/world.js';

const CORPUS = join(process.cwd(), 'conformance', 'evaluation');
interface Row {
  id: string;
  pack: string;
  facts?: unknown;
  factsFile?: string;
  evidenceAvailability?: unknown;
  evidenceAvailabilityFile?: string;
  supportedExtensions: string[];
  expectedErrorClass?: string;
}
const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as { cases: Row[] };
const ROWS = manifest.cases.filter((c) => c.expectedErrorClass === 'malformed-input');
/**
 * Facts whose brackets never close (`{"x":`, `{`) cannot be carried as a member value of any request: the object
 * they open swallows the rest of the message, so no reader can tell where the document ends. Such a message is not
 * a request with a readable envelope, and stays `request-not-json` in the DLQ (ADR 0176).
 */
const UNBALANCED = new Set(['error-facts-syntax', 'precedence-facts-before-evidence']);
const dir = mkdtempSync(join(tmpdir(), 'docket-malformed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytesOf = (inline: unknown, file: string | undefined): Uint8Array | undefined =>
  file !== undefined
    ? new Uint8Array(readFileSync(join(CORPUS, file)))
    : inline === undefined
      ? undefined
      : enc.encode(JSON.stringify(inline));

const concat = (...parts: (Uint8Array | string)[]): Uint8Array =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? enc.encode(p) : p))));

type Err = { class: string; phase: string; code: string; message: string };

/** What `docket evaluate` prints for the row's exact files. */
async function cliError(row: Row, facts: Uint8Array, evidence: Uint8Array | undefined): Promise<Err> {
  const f = join(dir, `${row.id}.facts`);
  writeFileSync(f, facts);
  const argv = ['--pack', join(CORPUS, row.pack), '--facts', f];
  if (evidence !== undefined) {
    writeFileSync(join(dir, `${row.id}.evidence`), evidence);
    argv.push('--evidence', join(dir, `${row.id}.evidence`));
  }
  for (const x of row.supportedExtensions) argv.push('--extension', x);
  const io = memoryIo();
  expect(await evaluate(argv, io)).toBe(2);
  return (JSON.parse(io.out()) as { error: Err }).error;
}

describe('malformed documents inside a readable request', () => {
  it('covers every malformed-input row of the corpus, those with facts files among them', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(25);
    expect(ROWS.filter((r) => r.factsFile !== undefined).length).toBeGreaterThanOrEqual(12);
  });

  for (const row of ROWS.filter((r) => UNBALANCED.has(r.id))) {
    it(`${row.id}: facts with an unclosed bracket cannot be carried in a request and stay unreadable`, async () => {
      const facts = bytesOf(row.facts, row.factsFile)!;
      const text = new TextDecoder().decode(facts);
      expect((text.match(/[[{]/g) ?? []).length).toBeGreaterThan((text.match(/[\]}]/g) ?? []).length);
      expect((await cliError(row, facts, undefined)).class).toBe('malformed-input');
      const w = world();
      const o = await processRequest(
        concat(
          `{"format":"${REQUEST_FORMAT}","requestId":"${row.id}","pack":"sha256:${'a'.repeat(64)}","facts":`,
          facts,
          '}',
        ),
        w.config,
        w.ports,
      );
      expect(o).toMatchObject({ status: 'dead-letter', code: 'request-not-json' });
    });
  }

  for (const row of ROWS.filter((r) => !UNBALANCED.has(r.id))) {
    it(`${row.id}: the pipeline records what docket evaluate answers, and replay reproduces it`, async () => {
      const facts = bytesOf(row.facts, row.factsFile)!;
      const evidence = bytesOf(row.evidenceAvailability, row.evidenceAvailabilityFile);
      const expected = await cliError(row, facts, evidence);
      expect(expected.class).toBe('malformed-input');

      const w = world({ supportedExtensions: row.supportedExtensions });
      const pack = new Uint8Array(readFileSync(join(CORPUS, row.pack)));
      w.packs.set(hex(pack), pack);
      const request = concat(
        `{"format":"${REQUEST_FORMAT}","requestId":"${row.id}","pack":"sha256:${hex(pack)}","facts":`,
        facts,
        ...(evidence === undefined ? [] : [',"evidence":', evidence]),
        '}',
      );
      const stored = await w.submit(request);
      const parsed = parseStoredEntry(stored.body);
      if (!parsed.ok) throw new Error(parsed.error.detail);
      const e = parsed.value.entry;
      expect(e.kind).toBe('evaluation-error');
      if (e.kind !== 'evaluation-error') return;
      expect(e.error).toEqual({ ...expected, message: capMessage(expected.message) });
      expect(e.requestDigest).toBe(hex(request));
      const replayed = await replayStoredEntry(stored, replayContext(w.options()));
      expect([replayed.result, replayed.differs ?? []]).toEqual(['replay-match', []]);
    });
  }
});

describe('the boundary between a refused envelope and a recorded document', () => {
  const DIGEST = `sha256:${'a'.repeat(64)}`;
  const head = `"format":"${REQUEST_FORMAT}","requestId":"r-1","pack":"${DIGEST}"`;
  const read = (text: string) => {
    const r = readRequest(enc.encode(text));
    return r.ok ? 'ok' : `${r.error.code}/${r.error.requestId ?? '-'}`;
  };

  it('reads the envelope around facts with duplicate names and keeps the exact facts slice', () => {
    const r = readRequest(enc.encode(`{${head},"facts": {"a":1,"a":2} ,"evidence":{"x":"present"}}`));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(new TextDecoder().decode(r.value.facts)).toBe('{"a":1,"a":2}');
    expect(new TextDecoder().decode(r.value.evidence)).toBe('{"x":"present"}');
  });

  it('keeps duplicate envelope members unreadable, and other envelope defects refused as before', () => {
    expect(read(`{${head},"requestId":"r-2","facts":{"a":1,"a":2}}`)).toBe('request-not-json/-');
    expect(read(`{${head},"facts":{"a":1,"a":2},"facts":{}}`)).toBe('request-not-json/-');
    expect(read(`{${head},"correlation":{"k":"1","k":"2"},"facts":{"a":1,"a":2}}`)).toBe('request-not-json/-');
    expect(read(`{${head},"facts":{"a":1,"a":2},"extra":1}`)).toBe('request-member-unknown/r-1');
    expect(read(`{${head},"facts":{"a":1,"a":2},"workBudget":1.5}`)).toBe('request-work-budget-invalid/r-1');
  });

  it('leaves bytes it cannot cut into members unreadable: unbalanced brackets, open strings, trailing data', () => {
    expect(read(`{${head},"facts":[1,2}`)).toBe('request-not-json/-');
    expect(read(`{${head},"facts":{"a":"open}}`)).toBe('request-not-json/-');
    expect(read(`{${head},"facts":{"a":1,"a":2}} x`)).toBe('request-not-json/-');
    expect(read(`{${head},"facts":1,2}`)).toBe('request-not-json/-');
    expect(read(`[{${head},"facts":{"a":1,"a":2}}]`)).toBe('request-not-json/-');
  });

  it('a redelivered malformed-facts request returns the same entry, not a second one', async () => {
    const w = world();
    const pack = new Uint8Array(readFileSync(join(CORPUS, 'packs/no-app.json')));
    w.packs.set(hex(pack), pack);
    const bytes = enc.encode(
      `{"format":"${REQUEST_FORMAT}","requestId":"dup-1","pack":"sha256:${hex(pack)}","facts":{"a":1,"a":2}}`,
    );
    const first = await processRequest(bytes, w.config, w.ports);
    const again = await processRequest(bytes, w.config, w.ports);
    expect(first).toMatchObject({
      status: 'recorded',
      created: true,
      kind: 'evaluation-error',
      errorClass: 'malformed-input',
    });
    expect(again).toMatchObject({ status: 'recorded', created: false, seq: (first as { seq: number }).seq });
  });
});
