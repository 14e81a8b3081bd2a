/**
 * Every human (non-JSON) output of the CLI prints document-supplied strings as terminal text (cli/terminal-text.ts):
 * a control or bidi character planted in any field — of a handoff message, a ledger entry of every kind, a graph run,
 * a result notification, a pack — is escaped, so it can neither act on the operator's terminal nor forge a line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeHandoff } from '../../cli/commands/handoffs.js';
import { describeEntry } from '../../cli/commands/show.js';
import { summary } from '../../cli/commands/tail.js';
import { run as validate } from '../../cli/commands/validate.js';
import { memoryIo } from '../../cli/io.js';
import { hasUnsafe, terminalText } from '../../cli/terminal-text.js';
import { humanLine } from '../../cli/wait-results.js';
import type { SignedEntry } from '../../core/ledger/index.js';
import type { ParsedEntry } from '../../core/ledger/entries/entry.js';
import type { HandoffMessage } from '../../core/pipeline/handoff-message.js';
import { dispositionEntry, errorEntry, refusalEntry } from '../ledger/fixtures.js';
import { graphRunEntry } from '../ledger/graph-run-fixtures.js';

/** Every class the issue names: C0 (ESC, CR, LF, BEL, TAB), DEL, C1 (CSI), and each bidi control. */
const PLANT =
  '\u001b[2J\r\n\u0007\t\u007f\u009b31m\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
const evil = (s: string): string => `${s}${PLANT}`;

/** Output is safe when, but for the newlines that end its own lines, it holds no raw control or bidi character. */
function expectSafe(hostile: string, clean: string): void {
  expect(hasUnsafe(hostile.replaceAll('\n', ''))).toBe(false);
  // A planted newline did not forge a line: the hostile rendering has exactly the clean one's lines.
  expect(hostile.split('\n')).toHaveLength(clean.split('\n').length);
  expect(hostile).toContain(terminalText(PLANT));
}

const signed = (e: object): SignedEntry => ({ ...e, signature: '00'.repeat(64) }) as SignedEntry;

function disposition(s: (x: string) => string): SignedEntry {
  const d = {
    kind: 'outcome',
    outcomeId: s('approve'),
    reasons: [s('no-match')],
    handoff: { state: 'requested', triggeredBy: [s('no-match')], routes: [{ kind: 'queue', name: s('Review') }] },
  };
  return signed(
    dispositionEntry({
      requestId: s('req-1'),
      logId: s('log-0'),
      disposition: d,
      pack: { id: s('triage'), version: s('1.0.0'), digest: 'a'.repeat(64) },
      specVersion: s('0.3.0'),
      keyId: s('key'),
      time: s('2026-12-06T00:00:00Z'),
      evaluator: { name: s('docket-evaluator'), version: s('0.1.0'), buildDigest: 'b'.repeat(64) },
    }),
  );
}

function handoff(s: (x: string) => string): HandoffMessage {
  const entry = disposition(s);
  return {
    format: 'docket.handoff/2',
    handoffId: s('sha256:00'),
    routeIndex: 0,
    shape: 'route',
    destination: 'configured',
    target: { kind: 'queue', name: s('Review') },
    instancePath: s('/a/b'),
    node: s('b'),
    entry: { entry, entryHash: 'c'.repeat(64) } as HandoffMessage['entry'],
    ledger: { logId: s('log-0'), seq: 3, entryHash: s('c'.repeat(64)) },
    requestId: s('req-1'),
    packDigest: 'a'.repeat(64),
    disposition: (entry as unknown as { disposition: HandoffMessage['disposition'] }).disposition,
  } as HandoffMessage;
}

function graphRun(s: (x: string) => string): SignedEntry {
  const base = graphRunEntry() as unknown as { run: string; packs: Record<string, string> };
  const run = JSON.parse(base.run) as {
    nodes: { instancePath: string }[];
    handoffs: { target?: { name: string }; originatingNode?: string }[];
  };
  run.nodes.forEach((n) => (n.instancePath = s(n.instancePath)));
  run.handoffs.forEach((h) => {
    if (h.target) h.target.name = s(h.target.name);
  });
  return signed(
    graphRunEntry({
      requestId: s('graph-req-1'),
      run: JSON.stringify(run),
      graph: { id: s('g'), version: s('1.0.0'), digest: 'd'.repeat(64) },
      packs: Object.fromEntries(Object.entries(base.packs).map(([k, v]) => [s(k), v])),
      keyId: s('key'),
    }),
  );
}

const same = (x: string): string => x;

describe('human CLI output escapes control and bidi characters planted in document-supplied strings', () => {
  it('escapes each class of character, and leaves ordinary text, a backslash and non-Latin letters alone', () => {
    expect(terminalText('a\u001b[2Jb\rc\nd\u007f\u009b\u202eé ש\\')).toBe(
      'a\\u{1b}[2Jb\\u{d}c\\u{a}d\\u{7f}\\u{9b}\\u{202e}é ש\\',
    );
    expect(hasUnsafe(terminalText(PLANT))).toBe(false);
  });

  it('docket handoffs: target, outcome, reasons, ids, graph node and ledger coordinates', () => {
    expectSafe(describeHandoff(handoff(evil)), describeHandoff(handoff(same)));
  });

  it('docket show: every string of a disposition, an evaluation-error and an admission-refusal entry', () => {
    expectSafe(describeEntry(disposition(evil), 'e'.repeat(64)), describeEntry(disposition(same), 'e'.repeat(64)));
    for (const make of [errorEntry, refusalEntry]) {
      const base = make() as unknown as Record<string, Record<string, string>>;
      const member = 'error' in base ? 'error' : 'refusal';
      const hostile = signed(
        make({
          requestId: evil('r'),
          [member]: { ...base[member], code: evil('code'), message: evil('message') },
        }),
      );
      expectSafe(describeEntry(hostile, 'e'.repeat(64)), describeEntry(signed(make()), 'e'.repeat(64)));
    }
  });

  it('docket show: a graph run’s instance paths, targets, graph id and member names', () => {
    expectSafe(describeEntry(graphRun(evil), 'e'.repeat(64)), describeEntry(graphRun(same), 'e'.repeat(64)));
  });

  it('docket tail and docket submit --wait: the one-line summaries of an entry', () => {
    expectSafe(`${summary(disposition(evil))}\n`, `${summary(disposition(same))}\n`);
    const parsed = (e: SignedEntry) => ({ entry: e, entryHash: 'e'.repeat(64) }) as ParsedEntry;
    expectSafe(`${humanLine(parsed(disposition(evil)))}\n`, `${humanLine(parsed(disposition(same)))}\n`);
  });

  const dir = mkdtempSync(join(tmpdir(), 'docket-terminal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('docket validate: diagnostics quoting a pack’s member names', async () => {
    const example = JSON.parse(readFileSync('examples/vendor-onboarding-target.json', 'utf8')) as object;
    const pack = (name: string) => {
      const path = join(dir, `${name.length}.json`);
      writeFileSync(path, JSON.stringify({ ...example, [name]: 1 }));
      return path;
    };
    const out = async (path: string) => {
      const io = memoryIo();
      await validate([path], io);
      return io.out().replaceAll(path, 'PACK');
    };
    const hostile = await out(pack(evil('member')));
    expect(hostile).toContain(terminalText(PLANT));
    expectSafe(hostile, await out(pack('member')));
  });
});
