/**
 * The SVG model of a laid-out graph run (ADR 0341): a plain tree of elements whose tag and attribute names are
 * fixed here and whose every string from the result is text content (or a <title>), never markup and never an
 * attribute that could act (the only link is `#disposition-<index>`, built from a number). The page builds DOM
 * from it with createElementNS / setAttribute / textContent; `svgMarkup` serializes it, escaping every character
 * that could end a text node or an attribute.
 */
import type { GraphLayout, LaidBox, LaidEdge, LaidLeaf, Rect } from './layout.js';
import type { GraphRunView } from './read.js';
import { showBidiControls } from './visible-text.js';

export interface SvgElement {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly text?: string;
  readonly children: readonly SvgElement[];
}

/** Fill and stroke per §8.3 disposition kind; an unknown kind is drawn grey. */
export const KIND_COLOURS: Readonly<Record<string, { fill: string; stroke: string }>> = {
  outcome: { fill: '#dcf3e4', stroke: '#2e7d4f' },
  'not-applicable': { fill: '#eceff1', stroke: '#607d8b' },
  unresolved: { fill: '#fff1cc', stroke: '#b7791f' },
};
const OTHER = { fill: '#f5f5f5', stroke: '#9e9e9e' };
const HANDOFF = '#c62828';

/** Every text of the drawing shows bidirectional controls as visible escapes (visible-text.ts). */
const el = (tag: string, attrs: Record<string, string>, children: SvgElement[] = [], text?: string): SvgElement => ({
  tag,
  attrs,
  children,
  ...(text === undefined ? {} : { text: showBidiControls(text) }),
});
const n = (x: number): string => String(Math.round(x * 10) / 10);
const bounds = (r: Rect): Record<string, string> => ({ x: n(r.x), y: n(r.y), width: n(r.w), height: n(r.h) });
const title = (s: string): SvgElement => el('title', {}, [], s);
/** Shortens for the drawing only (the full text is in the <title> and the page's list); by code points. */
export function clip(s: string, max: number): string {
  const cps = [...s];
  return cps.length <= max ? s : `${cps.slice(0, max - 1).join('')}…`;
}
const text = (x: number, y: number, s: string, extra: Record<string, string> = {}): SvgElement =>
  el('text', { x: n(x), y: n(y), ...extra }, [], s);

export function summary(leaf: LaidLeaf['leaf']): string {
  const d = leaf.disposition;
  return d.kind === 'outcome' && d.outcomeId !== undefined
    ? `outcome ${d.outcomeId}`
    : `${d.kind}: ${d.reasons.join(', ')}`;
}

function box(b: LaidBox): SvgElement {
  const i = b.instance;
  return el('g', { class: 'graph-instance' }, [
    title(`${i.instancePath} — subgraph ${i.subgraph} ${i.digest}`),
    el('rect', {
      ...bounds(b),
      rx: '10',
      fill: b.depth % 2 ? '#f3f6fb' : '#ffffff',
      stroke: '#5c6f91',
      'stroke-dasharray': '6 3',
    }),
    text(b.x + 12, b.y + 18, clip(`${i.path.at(-1)!} · subgraph ${i.subgraph}`, 64), { 'font-weight': '600' }),
    text(b.x + 12, b.y + 34, clip(i.digest, 72), { 'font-family': 'monospace', 'font-size': '11', fill: '#44546f' }),
  ]);
}

function edge(e: LaidEdge): SvgElement {
  const mx = (e.x1 + e.x2) / 2;
  const f = e.feed;
  const label = `${f.evidence ? 'evidence ' : ''}${f.label}${f.output === undefined ? '' : ` ← ${f.output}`}`;
  const state = f.injected ? 'injected' : 'not injected';
  return el('g', { class: f.injected ? 'graph-edge injected' : 'graph-edge not-injected' }, [
    title(`${f.from}${f.output === undefined ? '' : `.${f.output}`} → ${label} (${state})`),
    el('path', {
      d: `M ${n(e.x1)} ${n(e.y1)} C ${n(mx)} ${n(e.y1)}, ${n(mx)} ${n(e.y2)}, ${n(e.x2)} ${n(e.y2)}`,
      fill: 'none',
      stroke: f.injected ? '#37474f' : '#9aa5b1',
      'stroke-width': '1.5',
      ...(f.injected ? {} : { 'stroke-dasharray': '4 4' }),
      'marker-end': 'url(#graph-arrow)',
    }),
    text(e.x2 - 6, e.y2 - 4, clip(`${label}${f.injected ? '' : ' ∅'}`, 30), {
      'text-anchor': 'end',
      'font-size': '11',
      fill: '#263238',
    }),
  ]);
}

function leafNode(l: LaidLeaf): SvgElement {
  const d = l.leaf.disposition;
  const c = KIND_COLOURS[d.kind] ?? OTHER;
  const lines: SvgElement[] = [
    text(l.x + 10, l.y + 18, clip(l.leaf.node, 30), { 'font-weight': '600' }),
    text(l.x + 10, l.y + 34, clip(`pack ${l.leaf.pack}`, 40), { 'font-size': '11', fill: '#44546f' }),
    text(l.x + 10, l.y + 50, clip(summary(l.leaf), 40), { 'font-size': '12' }),
  ];
  if (d.handoffRequested)
    lines.push(
      text(
        l.x + 10,
        l.y + 65,
        clip(`⚑ handoff${l.leaf.handoffTarget === undefined ? '' : ` → ${l.leaf.handoffTarget}`}`, 44),
        {
          'font-size': '11',
          fill: HANDOFF,
          'font-weight': '600',
        },
      ),
    );
  const rules = d.rules.length > 0 ? ` — rules ${d.rules.join(', ')}` : '';
  return el(
    'a',
    { href: `#disposition-${l.index}`, class: `graph-node kind-${KIND_COLOURS[d.kind] ? d.kind : 'other'}` },
    [
      title(`${l.leaf.instancePath} (${l.leaf.packRef}): ${summary(l.leaf)}${rules}`),
      el('rect', {
        ...bounds(l),
        rx: '6',
        fill: c.fill,
        stroke: d.handoffRequested ? HANDOFF : c.stroke,
        'stroke-width': d.handoffRequested ? '3' : '1.5',
      }),
      ...lines,
    ],
  );
}

export function graphSvg(run: GraphRunView, layout: GraphLayout): SvgElement {
  const children: SvgElement[] = [
    title(`Graph run of ${run.graphId}@${run.graphVersion}`),
    el('defs', {}, [
      el(
        'marker',
        {
          id: 'graph-arrow',
          viewBox: '0 0 10 10',
          refX: '10',
          refY: '5',
          markerWidth: '8',
          markerHeight: '8',
          orient: 'auto-start-reverse',
        },
        [el('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#37474f' })],
      ),
    ]),
    ...[...layout.boxes].sort((a, b) => a.depth - b.depth).map(box),
  ];
  if (layout.caller) {
    const c = layout.caller;
    children.push(
      el('g', { class: 'graph-caller' }, [
        el('rect', { ...bounds(c), rx: '20', fill: '#e8eaf6', stroke: '#3949ab' }),
        text(c.x + c.w / 2, c.y + c.h / 2 + 4, 'caller', { 'text-anchor': 'middle', 'font-weight': '600' }),
      ]),
    );
  }
  children.push(...layout.edges.map(edge), ...layout.leaves.map(leafNode));
  return el(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      viewBox: `0 0 ${n(layout.width)} ${n(layout.height)}`,
      width: n(layout.width),
      height: n(layout.height),
      role: 'img',
      'font-family': 'system-ui, sans-serif',
      'font-size': '12',
    },
    children,
  );
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The model as SVG markup: every attribute value and text escaped. */
export function svgMarkup(e: SvgElement): string {
  const attrs = Object.entries(e.attrs)
    .map(([k, v]) => ` ${k}="${escape(v)}"`)
    .join('');
  const inner = (e.text === undefined ? '' : escape(e.text)) + e.children.map(svgMarkup).join('');
  return `<${e.tag}${attrs}>${inner}</${e.tag}>`;
}
