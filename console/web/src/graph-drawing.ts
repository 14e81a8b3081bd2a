import { html, nothing } from 'lit';
import {
  graphSvg,
  layoutGraphRun,
  summary,
  type GraphRunView,
  type SvgElement,
} from '../../../core/graph-view/index.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * DOM from the pure SVG model (core/graph-view): element and attribute names come from the model's fixed set, every
 * string from the result is set with textContent, never parsed as markup (ADR 0184, ADR 0341).
 */
function toDom(e: SvgElement): Element {
  const node = document.createElementNS(SVG_NS, e.tag);
  for (const [k, v] of Object.entries(e.attrs)) if (k !== 'xmlns') node.setAttribute(k, v);
  if (e.text !== undefined) node.textContent = e.text;
  for (const c of e.children) node.appendChild(toDom(c));
  return node;
}

/** What a leaf's entry in the list adds beside its disposition: the pack rules that fired there, when known. */
export type LeafExtra = (leafIndex: number) => unknown;

/**
 * A graph run drawn as a DAG — nodes coloured by disposition kind, subgraph instances as nested boxes with their
 * digest, edges labelled with the fact pointer or evidence requirement (dashed when nothing was injected), requested
 * handoffs marked — and below it every leaf's disposition, each the target of its node's link (`#disposition-<i>`).
 * Shared by the saved-run page (`/graph-run`) and a graph-run entry's page (ADR 0341, ADR 0370).
 */
export function graphRunDrawing(run: GraphRunView, extra: LeafExtra = () => nothing) {
  const svg = toDom(graphSvg(run, layoutGraphRun(run)));
  svg.setAttribute('aria-label', `Graph run of ${run.graphId}@${run.graphVersion}`);
  return html`<p>
      <code>${run.graphId}@${run.graphVersion}</code> · <code>${run.graphDigest}</code><br />
      Headline: <code>${run.headline.node}</code> — <strong>${run.headline.kind}</strong>
    </p>
    <p class="graph-legend">
      Green: outcome · yellow: unresolved · grey: not applicable · red border: handoff requested · dashed edge: nothing
      injected (∅) · dashed box: a subgraph instance with its digest.
    </p>
    <div class="graph-drawing">${svg}</div>
    <h2>Dispositions</h2>
    <ol class="graph-dispositions">
      ${run.leaves.map(
        (l, i) =>
          html`<li id=${`disposition-${i}`}>
            <strong><code>${l.instancePath}</code></strong> — pack <code>${l.pack}</code> (<code>${l.packRef}</code>):
            ${summary(l)}
            ${
              l.disposition.handoffRequested
                ? html` · handoff
                  requested${l.handoffTarget === undefined ? nothing : html` to <strong>${l.handoffTarget}</strong>`}`
                : nothing
            }
            ${
              l.disposition.rules.length > 0
                ? html`<br />Rules fired: ${l.disposition.rules.map((r) => html`<code>${r}</code> `)}`
                : nothing
            }
            ${extra(i)}
            <pre>${JSON.stringify(l.disposition.raw, null, 2)}</pre>
          </li>`,
      )}
    </ol>`;
}
