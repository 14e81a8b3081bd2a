/**
 * The console's graph drawing, without a browser (ADR 0341): the reader refuses malformed result objects with a
 * typed error, the layout is layered by Kahn order and deterministic, subgraph instances are nested boxes, and
 * hostile strings stay text in the SVG model and its markup.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  graphSvg,
  layoutGraphRun,
  readGraphRunView,
  svgMarkup,
  type GraphRunView,
  type SvgElement,
} from '../../core/graph-view/index.js';
import { hostileRun, procurementRun } from './fixtures.js';

function view(v: unknown): GraphRunView {
  const r = readGraphRunView(v);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const texts = (e: SvgElement): string[] => [...(e.text === undefined ? [] : [e.text]), ...e.children.flatMap(texts)];
const all = (e: SvgElement): SvgElement[] => [e, ...e.children.flatMap(all)];

describe('reading a graph run result for the view', () => {
  it('reads every leaf and subgraph instance of RFC 0022 worked example', () => {
    const v = view(procurementRun());
    expect(v.leaves.map((l) => l.instancePath)).toEqual(procurementRun().nodes.map((n) => n.instancePath));
    expect(v.instances.map((i) => i.instancePath)).toEqual(['/contractor-sanctions', '/vendor-sanctions']);
    expect(v.headline).toEqual({ node: 'procurement-approval', kind: 'unresolved' });
  });

  it('refuses a result whose node lacks an instance path, and reports a refused run as such', () => {
    const broken = procurementRun();
    delete (broken.nodes[0] as { instancePath?: string }).instancePath;
    expect(readGraphRunView(broken)).toEqual({
      ok: false,
      error: { code: 'graph-result-invalid', message: 'nodes[0].instancePath must be a string' },
    });
    expect(readGraphRunView({ status: 'refused', error: { code: 'JPS-GRAPH-INVALID', message: 'cycle' } })).toEqual({
      ok: false,
      error: { code: 'graph-run-refused', message: 'JPS-GRAPH-INVALID: cycle' },
    });
    expect(readGraphRunView([1, 2]).ok).toBe(false);
  });
});

describe('the layout', () => {
  it('puts a node one layer right of its latest upstream, and the instances inside their boxes', () => {
    const l = layoutGraphRun(view(procurementRun()));
    const at = (p: string) => l.leaves.find((x) => x.leaf.instancePath === p)!;
    const box = (p: string) => l.boxes.find((b) => b.instance.instancePath === p)!;
    // procurement-approval reads both instances' outputs: it lies right of both boxes.
    expect(at('procurement-approval').x).toBeGreaterThan(box('/vendor-sanctions').x + box('/vendor-sanctions').w);
    expect(at('procurement-approval').x).toBeGreaterThan(
      box('/contractor-sanctions').x + box('/contractor-sanctions').w,
    );
    // Inside an instance, the aggregator reads both checks: one layer to their right.
    expect(at('/vendor-sanctions/composite-risk').x).toBeGreaterThan(at('/vendor-sanctions/ofac-check').x);
    expect(at('/vendor-sanctions/ofac-check').x).toBe(at('/vendor-sanctions/pep-check').x);
    for (const leaf of l.leaves.filter((x) => x.leaf.path.length > 1)) {
      const b = box(`/${leaf.leaf.path[0]}`);
      expect(leaf.x).toBeGreaterThan(b.x);
      expect(leaf.y).toBeGreaterThan(b.y);
      expect(leaf.x + leaf.w).toBeLessThan(b.x + b.w);
      expect(leaf.y + leaf.h).toBeLessThan(b.y + b.h);
    }
    // Same-layer instances are stacked by id: contractor before vendor.
    expect(box('/contractor-sanctions').y).toBeLessThan(box('/vendor-sanctions').y);
  });

  it('draws one edge per feed whose source is on the page, from the caller, an interface or a sibling', () => {
    const l = layoutGraphRun(view(procurementRun()));
    const feeds = procurementRun().nodes.reduce((s, x) => s + x.factFeeds.length + x.evidenceFeeds.length, 0);
    const instanceFeeds = procurementRun().subgraphs.reduce(
      (s, x) => s + x.factFeeds.length + x.evidenceFeeds.length,
      0,
    );
    expect(l.edges).toHaveLength(feeds + instanceFeeds);
    expect(l.caller).not.toBeNull();
    expect(l.edges.filter((e) => !e.feed.injected).map((e) => e.feed.label)).toContain('/screening/contractor-cleared');
  });

  it('gives the same coordinates and the same markup on every run, whatever the order of the nodes array', () => {
    const a = view(procurementRun());
    const shuffled = procurementRun();
    shuffled.subgraphs.reverse();
    const first = svgMarkup(graphSvg(a, layoutGraphRun(a)));
    expect(svgMarkup(graphSvg(a, layoutGraphRun(a)))).toBe(first);
    const b = view(shuffled);
    expect(layoutGraphRun(b).boxes.map((x) => [x.instance.instancePath, x.x, x.y])).toEqual(
      layoutGraphRun(a).boxes.map((x) => [x.instance.instancePath, x.x, x.y]),
    );
    writeFileSync(join(process.env.GRAPH_VIEW_OUT ?? '/tmp', 'graph-view-example.svg'), first);
  });
});

describe('the SVG model', () => {
  it('colours nodes by disposition kind and marks requested handoffs with their target', () => {
    const v = view(procurementRun());
    const svg = graphSvg(v, layoutGraphRun(v));
    const nodes = all(svg).filter((e) => e.attrs.class?.startsWith('graph-node'));
    expect(nodes).toHaveLength(v.leaves.length);
    expect(nodes.map((e) => e.attrs.href)).toEqual(v.leaves.map((_, i) => `#disposition-${i}`));
    const handoff = texts(svg).filter((t) => t.startsWith('⚑ handoff'));
    expect(handoff).toContain('⚑ handoff → Sanctions Compliance Officer');
    const kinds = new Set(nodes.map((e) => e.attrs.class));
    expect(kinds).toEqual(new Set(v.leaves.map((l) => `graph-node kind-${l.disposition.kind}`)));
  });

  it('labels each instance box with its subgraph digest', () => {
    const v = view(procurementRun());
    const t = texts(graphSvg(v, layoutGraphRun(v)));
    expect(t.some((s) => s.startsWith('sha256:47e7c8483de7dc1f8d764c50b1d83c3048bf23'))).toBe(true);
  });

  it('keeps hostile ids, pointers and targets as text: no element, attribute or link comes from them', () => {
    const v = view(hostileRun());
    const svg = graphSvg(v, layoutGraphRun(v));
    const tags = new Set(all(svg).map((e) => e.tag));
    expect([...tags].sort()).toEqual(['a', 'defs', 'g', 'marker', 'path', 'rect', 'svg', 'text', 'title']);
    for (const e of all(svg)) {
      expect(Object.keys(e.attrs).every((k) => /^[a-zA-Z-]+$/.test(k) && !/^on/i.test(k))).toBe(true);
      if (e.attrs.href !== undefined) expect(e.attrs.href).toMatch(/^#disposition-\d+$/);
    }
    const markup = svgMarkup(svg);
    expect(markup).not.toContain('<img');
    expect(markup).not.toContain('<script');
    expect(markup).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(texts(svg).join('\n')).toContain('"><script>alert(2)</script>');
  });

  it('shows bidirectional controls in ids and targets as visible escapes in every text and title of the drawing', () => {
    const r = procurementRun();
    const leaf = r.nodes.find((n) => n.instancePath === 'procurement-approval')!;
    // Reads as "approval-fdp.exe" when the override is honoured: the spoof a reviewer must see through.
    leaf.node = 'approval-\u202Eexe.pdf';
    leaf.instancePath = 'approval-\u202Eexe.pdf';
    const handoff = r.nodes.find((n) => n.handoffTarget !== undefined)!;
    handoff.handoffTarget = { kind: 'human-role', name: 'Officer\u2066 \u2069B' };
    const v = view(r);
    const svg = graphSvg(v, layoutGraphRun(v));
    const shown = texts(svg).join('\n');
    expect(shown).toContain('approval-⟨U+202E⟩exe.pdf');
    expect(shown).toContain('Officer⟨U+2066⟩ ⟨U+2069⟩B');
    expect(shown).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    expect(svgMarkup(svg)).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
  });
});
