import { html, svg, type TemplateResult } from 'lit';
import type { Series } from '../../../core/console-api/index.js';
import { visible } from './format.js';

/** Eight distinguishable colours (Okabe–Ito plus grey), readable on white. */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#999999'];

/** A stacked bar chart drawn as SVG by the page itself (ADR 0182): one bar per time bucket, one colour per series. */
export function stackedBars(
  title: string,
  series: readonly Series[],
  start: string | null,
  end: string | null,
): TemplateResult {
  const buckets = series[0]?.counts.length ?? 0;
  const totals = Array.from({ length: buckets }, (_, i) => series.reduce((a, s) => a + (s.counts[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const W = 480;
  const H = 160;
  const bw = buckets ? W / buckets : W;
  const bars = [];
  for (let i = 0; i < buckets; i++) {
    let y = H;
    for (const [k, s] of series.entries()) {
      const h = ((s.counts[i] ?? 0) / max) * (H - 10);
      if (h <= 0) continue;
      y -= h;
      bars.push(
        svg`<rect x=${i * bw + 1} y=${y} width=${Math.max(1, bw - 2)} height=${h} fill=${COLOURS[k % COLOURS.length]!}><title>${visible(s.name)}: ${s.counts[i] ?? 0}</title></rect>`,
      );
    }
  }
  return html`<figure class="chart">
    <figcaption>${title}</figcaption>
    <svg viewBox="0 0 ${W} ${H + 2}" role="img" aria-label=${title}>
      <line x1="0" y1=${H + 1} x2=${W} y2=${H + 1} stroke="#888"></line>
      ${bars}
    </svg>
    <div class="axis"><span>${start ?? ''}</span><span>max ${max} per bucket</span><span>${end ?? ''}</span></div>
    <ul class="legend">
      ${series.map(
        (s, k) =>
          html`<li>
            <svg class="swatch" width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" fill=${COLOURS[k % COLOURS.length]!}></rect></svg
            >${visible(s.name)} (${s.counts.reduce((a, b) => a + b, 0)})
          </li>`,
      )}
    </ul>
  </figure>`;
}
