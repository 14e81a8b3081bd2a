/**
 * `docket show` of a `graph-run` entry (docs/graphs.md "Submitting, showing and drawing a graph run", ADR 0370): what
 * was decided first — the headline, every leaf, every handoff with its node and target verbatim — then where it is
 * recorded and what it binds. The recorded run is read strictly with core/graph-view's reader; its strings are
 * printed as terminal text (cli/terminal-text.ts), so no terminal sequence in a hostile id can act.
 */
import { readGraphRunView } from '../../core/graph-view/index.js';
import type { SignedEntry } from '../../core/ledger/index.js';
import { consoleEntryUrl } from '../console/address.js';
import { shown, terminalLines, terminalText } from '../terminal-text.js';

type GraphRunEntry = Extract<SignedEntry, { kind: 'graph-run' }>;
type Rec = Record<string, unknown>;
const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);

const str = shown;

function dispositionText(d: { kind: string; outcomeId?: string; reasons: readonly string[] }): string {
  return d.kind === 'outcome' ? `outcome  ${str(d.outcomeId)}` : `${str(d.kind)}  ${d.reasons.map(str).join(', ')}`;
}

/** Every requested handoff at any depth: the node it came from (its instance path), then the target verbatim. */
function handoffLines(run: Rec): string[] {
  const list = Array.isArray(run.handoffs) ? run.handoffs.filter(isRec) : [];
  return list.map((h) => {
    const from = str(h.originatingNode ?? h.node);
    const t = isRec(h.target) ? `${str(h.target.kind)}:${str(h.target.name)}` : '(no target: unrouted)';
    const by = Array.isArray(h.triggeredBy) ? h.triggeredBy.map(str).join(', ') : '';
    return `${from} → ${t}  (${by})`;
  });
}

function runLines(text: string): string[] {
  let plain: unknown;
  try {
    plain = JSON.parse(text);
  } catch {
    return ['result    graph run (the recorded run is not JSON)'];
  }
  if (isRec(plain) && plain.status === 'refused') {
    const e = isRec(plain.error) ? plain.error : {};
    const out = [`result    graph run refused  ${str(e.layer)} ${str(e.code)}`];
    const detail = ['diagnostic', 'class', 'phase', 'node']
      .filter((k) => e[k] !== null && e[k] !== undefined)
      .map((k) => `${k} ${str(e[k])}`);
    if (detail.length > 0) out.push(`          ${detail.join('  ')}`);
    if (typeof e.message === 'string') out.push(`          ${terminalText(e.message)}`);
    return out;
  }
  const view = readGraphRunView(plain);
  if (!view.ok) return [`result    graph run (unreadable: ${view.error.code}: ${terminalText(view.error.message)})`];
  const v = view.value;
  const head = v.leaves.find((l) => l.instancePath === v.headline.node);
  const width = Math.max(...v.leaves.map((l) => terminalText(l.instancePath).length), 8) + 2;
  const out = [
    'result    graph run evaluated',
    `headline  ${str(v.headline.node)}  ${head ? dispositionText(head.disposition) : str(v.headline.kind)}`,
    'leaves    (instance path, disposition, in evaluation order)',
    ...v.leaves.map(
      (l) =>
        `          ${terminalText(l.instancePath).padEnd(width)}${dispositionText(l.disposition)}${l.disposition.handoffRequested ? '  ⚑ handoff' : ''}`,
    ),
  ];
  const handoffs = handoffLines(plain as Rec);
  out.push(...handoffs.map((h, i) => `${i === 0 ? 'handoffs ' : '         '} ${h}`));
  if (handoffs.length === 0) out.push('handoffs  none');
  return out;
}

export function describeGraphRunEntry(e: GraphRunEntry, entryHash: string): string {
  const lines = [`request   ${e.requestId}`, ...runLines(e.run)];
  lines.push(`graph     ${str(e.graph.id)}@${str(e.graph.version)} sha256:${e.graph.digest}`);
  lines.push(`ledger    log ${e.logId} seq ${e.seq}  entry ${entryHash}`);
  const members = (label: string, m: Readonly<Record<string, string>>) =>
    Object.entries(m).map(([name, d], i) => `${i === 0 ? label.padEnd(10) : ''.padEnd(10)}${str(name)} sha256:${d}`);
  lines.push(...members('packs', e.packs), ...members('subgraphs', e.graphs));
  lines.push(`digests   request ${e.requestDigest}`);
  lines.push(`          inputs ${e.inputsDigest ?? 'none (every node got {})'}`);
  lines.push(`work      ${e.work} of ${e.workBudget} units`);
  lines.push(`features  ${e.draftFeatures.join(', ')}`);
  lines.push(`evaluator ${e.evaluator.name} ${e.evaluator.version} build ${e.evaluator.buildDigest.slice(0, 16)}…`);
  lines.push(`signed    ${e.time} by ${e.keyId}`);
  lines.push(`console   ${consoleEntryUrl(e.requestId)}  (docket console draws the graph)`);
  return terminalLines(lines);
}
