/**
 * `docket show` of a graph-run entry (ADR 0370): the headline, every leaf by instance path with its disposition kind,
 * every handoff with the node it came from and its target verbatim, the closed set, and the console link; a hostile
 * string from the run is printed with its control characters escaped.
 */
import { describe, expect, it } from 'vitest';
import { describeEntry } from '../../cli/commands/show.js';
import { terminalText } from '../../cli/terminal-text.js';
import type { SignedEntry } from '../../core/ledger/index.js';
import { graphRunEntry } from '../ledger/graph-run-fixtures.js';

const signed = (over: Partial<Record<string, unknown>> = {}) =>
  ({ ...graphRunEntry(over), signature: '00'.repeat(64) }) as SignedEntry;

describe('docket show of a graph-run entry', () => {
  const out = describeEntry(signed(), 'ab'.repeat(32));

  it("leads with RFC 0022's headline, then every leaf in evaluation order by instance path and kind", () => {
    const lines = out.split('\n');
    expect(lines[1]).toBe('result    graph run evaluated');
    expect(lines[2]).toBe('headline  procurement-approval  unresolved  no-match');
    expect(out).toMatch(
      /^ +\/contractor-sanctions\/ofac-check +unresolved {2}missing-required-evidence {2}⚑ handoff$/m,
    );
    expect(out).toMatch(/^ +\/vendor-sanctions\/composite-risk +outcome {2}cleared$/m);
    expect(out).toMatch(/^ +procurement-approval +unresolved {2}no-match$/m);
    const leafLines = lines.slice(lines.indexOf('leaves    (instance path, disposition, in evaluation order)') + 1);
    expect(leafLines.findIndex((l) => l.startsWith('handoffs'))).toBe(7);
  });

  it('names each handoff by the instance path it came from, the target verbatim, or none for a destinationless one', () => {
    expect(out).toContain(
      'handoffs  /contractor-sanctions/ofac-check → human-role:Sanctions Compliance Officer  (missing-required-evidence)',
    );
    expect(out).toContain('/contractor-sanctions/pep-check → (no target: unrouted)  (exception-escalation)');
  });

  it('binds the graph, its closed set and the inputs by digest, and links the console page', () => {
    expect(out).toMatch(/^graph {5}https:\/\/example\.com\/graphs\/procurement-triage@0\.1\.0 sha256:[0-9a-f]{64}$/m);
    expect(out).toMatch(/^packs {5}ofac-screening sha256:[0-9a-f]{64}$/m);
    expect(out).toMatch(/^subgraphs sanctions-screening sha256:47e7c848/m);
    expect(out).toMatch(/^ {10}inputs [0-9a-f]{64}$/m);
    expect(out).toContain('features  judgment-graphs');
    expect(out).toContain('console   http://127.0.0.1:4600/entry/graph-req-1');
  });

  it('prints a refused run with its layer, code and the rest of its refusal', () => {
    const refused = JSON.stringify({
      status: 'refused',
      error: {
        layer: 'node',
        code: 'JPS-GRAPH-NODE',
        diagnostic: null,
        class: 'resource-exhaustion',
        phase: 'evaluation',
        node: '/vendor-sanctions/ofac-check',
        message: 'budget',
      },
    });
    const text = describeEntry(signed({ run: refused }), 'ab'.repeat(32));
    expect(text).toContain('result    graph run refused  node JPS-GRAPH-NODE');
    expect(text).toContain('class resource-exhaustion  phase evaluation  node /vendor-sanctions/ofac-check');
  });

  it('escapes control characters, so a terminal sequence in a hostile id cannot act', () => {
    expect(terminalText('a\u001b[2Jb\u0007\u009bc')).toBe('a\\u{1b}[2Jb\\u{7}\\u{9b}c');
    const run = JSON.parse((signed() as { run: string }).run) as { nodes: { instancePath: string }[] };
    run.nodes[0]!.instancePath = '/x\u001b]0;pwned\u0007/y';
    const text = describeEntry(signed({ run: JSON.stringify(run) }), 'ab'.repeat(32));
    expect(text).not.toContain('\u001b');
    expect(text).toContain('/x\\u{1b}]0;pwned\\u{7}/y');
  });
});
