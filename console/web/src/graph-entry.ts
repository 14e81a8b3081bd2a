import { html, nothing, type TemplateResult } from 'lit';
import { readGraphRunView } from '../../../core/graph-view/index.js';
import type { GraphLeafRules, GraphRulesView } from '../../../core/console-api/index.js';
import type { SignedEntry } from '../../../core/ledger/index.js';
import { correlationText, visible } from './format.js';
import { graphRunDrawing } from './graph-drawing.js';
import type { Load } from './loader.js';

type GraphRunEntry = Extract<SignedEntry, { kind: 'graph-run' }>;
type Rec = Record<string, unknown>;
const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);
const text = (x: unknown): string => (x === null || x === undefined ? '—' : visible(String(x)));

/** A refused run (graph-semantics.md "Output contract"): its layer, code and the rest, no disposition of any kind. */
function refusal(error: Rec) {
  return html`<dl class="result graph-refused">
    <dt>Graph run refused</dt>
    <dd>layer ${text(error.layer)}, code <code>${text(error.code)}</code></dd>
    ${['diagnostic', 'class', 'phase', 'node'].map((k) =>
      error[k] === null || error[k] === undefined
        ? nothing
        : html`<dt>${k}</dt>
            <dd><code>${text(error[k])}</code></dd>`,
    )}
    <dt>Message</dt>
    <dd class="message">${text(error.message)}</dd>
  </dl>`;
}

/** The rules and exceptions that fired at one leaf, each with its definition; or why that is not known. */
function firedAt(rules: Load<GraphRulesView> | null, leafIndex: number, instancePath: string): TemplateResult {
  if (rules === null || rules.state === 'loading')
    return html`<div class="muted" role="status">Pack rules: re-running the request with traces…</div>`;
  if (rules.state === 'error') return html`<div class="error">Pack rules: ${rules.message}</div>`;
  const v = rules.value;
  if (!v.known)
    return html`<div class="muted" data-fired-unknown>Which rules fired is not known: ${visible(v.reason)}</div>`;
  const leaf: GraphLeafRules | undefined = v.leaves[leafIndex];
  // The leaves come in the run's evaluation order; a different path means another run: never show its trace here.
  if (leaf === undefined || leaf.instancePath !== instancePath)
    return html`<div class="muted" data-fired-unknown>Which rules fired is not known for this node.</div>`;
  const items = [
    ...leaf.rules.map((r) => ({ kind: 'rule', ...r })),
    ...leaf.exceptions.map((x) => ({ kind: 'exception', ...x })),
  ];
  return html`<div class="graph-fired" data-fired-count=${items.length}>
    Pack rules that fired (the evaluation stopped at §8 step ${visible(leaf.terminatedAt)}):
    ${
      items.length === 0
        ? html`<span class="muted" data-fired="none">none was true.</span>`
        : html`<ul class="fired">
            ${items.map(
              (r) =>
                html`<li data-fired=${r.id}>
                  ${r.kind} <code>${visible(r.id)}</code> → ${visible(r.yields)}
                  ${r.description !== null ? html` — ${visible(r.description)}` : nothing}
                  <details>
                    <summary>definition</summary>
                    <pre class="body">${visible(r.definition)}</pre>
                  </details>
                </li>`,
            )}
          </ul>`
    }
  </div>`;
}

/**
 * A graph-run entry's "What was decided" (docs/console.md "A graph run's entry", ADR 0370): the recorded run — the
 * output contract's exact text, read strictly by core/graph-view — drawn as a DAG by graph-drawing.ts, each leaf's
 * list item (the target of its node's link) carrying its disposition and the pack rules that fired there (ADR 0371).
 */
export function graphRunEntrySection(e: GraphRunEntry, rules: Load<GraphRulesView> | null): TemplateResult {
  let plain: unknown;
  try {
    plain = JSON.parse(e.run);
  } catch {
    return html`<p class="bad">The recorded run is not JSON.</p>`;
  }
  if (isRec(plain) && plain.status === 'refused') return refusal(isRec(plain.error) ? plain.error : {});
  const view = readGraphRunView(plain);
  if (!view.ok)
    return html`<p class="bad" data-graph-view=${view.error.code}>
      The recorded run cannot be drawn: ${visible(view.error.code)} — ${visible(view.error.message)}
    </p>`;
  const leaves = view.value.leaves;
  return html`<div class="graph-run-entry">
    ${graphRunDrawing(view.value, (i) => firedAt(rules, i, leaves[i]!.instancePath))}
  </div>`;
}

/** A graph-run entry's "What it was decided on": the graph, its closed set and the inputs by digest, and the rest. */
export function graphRunFacts(e: GraphRunEntry, signature: TemplateResult): TemplateResult {
  const pins = (m: Readonly<Record<string, string>>) =>
    Object.keys(m).length === 0
      ? 'none'
      : html`<ul class="graph-pins">
          ${Object.entries(m).map(([name, d]) => html`<li><code>${visible(name)}</code> sha256:<code>${d}</code></li>`)}
        </ul>`;
  return html`<section aria-labelledby="facts-h">
    <h2 id="facts-h">What it was decided on</h2>
    <dl class="facts">
      <dt>Graph</dt>
      <dd class="graph">
        ${visible(e.graph.id)} version ${visible(e.graph.version)}, digest <code>sha256:${e.graph.digest}</code>
      </dd>
      <dt>Packs (closed set)</dt>
      <dd>${pins(e.packs)}</dd>
      <dt>Subgraphs (closed set)</dt>
      <dd>${pins(e.graphs)}</dd>
      <dt>Draft features</dt>
      <dd class="draft-features">${e.draftFeatures.map((f) => visible(f)).join(', ')}</dd>
      <dt>Supported extensions</dt>
      <dd>${e.supportedExtensions.length ? e.supportedExtensions.map((x) => visible(x)).join(', ') : 'none'}</dd>
      <dt>Correlation</dt>
      <dd class="correlation">${visible(correlationText(e.correlation))}</dd>
      <dt>Request digest</dt>
      <dd><code>${e.requestDigest}</code></dd>
      <dt>Inputs digest</dt>
      <dd><code>${visible(e.inputsDigest)}</code></dd>
      ${recordFacts(e, signature)}
    </dl>
  </section>`;
}

/** The facts every entry ends with, a graph run's and a single evaluation's alike: its chain link, work and signer. */
export function recordFacts(e: SignedEntry, signature: TemplateResult): TemplateResult {
  return html`<dt>Previous entry hash</dt>
    <dd><code>${visible(e.prevHash)}</code></dd>
    <dt>Work</dt>
    <dd>${e.work}${e.workBudget !== null ? ` of a budget of ${e.workBudget}` : ''} units</dd>
    <dt>Evaluator</dt>
    <dd>${visible(e.evaluator.name)} ${visible(e.evaluator.version)}, build <code>${e.evaluator.buildDigest}</code></dd>
    <dt>Recorded</dt>
    <dd>${visible(e.time)}</dd>
    <dt>Signature</dt>
    <dd>${signature}</dd>`;
}
