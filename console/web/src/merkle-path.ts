import { html, svg, type TemplateResult } from 'lit';
import type { InclusionView as Inclusion } from '../../../core/console-api/index.js';
import { short } from './light-element.js';

/**
 * The inclusion proof drawn as its Merkle path (RFC 9162 §2.1.3.2): the entry's leaf at the bottom, each step's
 * sibling on the side it hashes from, the running hash above it, the checkpoint's root at the top.
 */
export function merklePath(p: Inclusion): TemplateResult {
  const rowH = 56;
  const rows = p.steps.length + 2;
  const H = rows * rowH;
  const W = 520;
  const cx = W / 2;
  const box = (x: number, y: number, label: string, value: string, cls: string) =>
    svg`<g class=${cls}><rect x=${x - 90} y=${y} width="180" height="36" rx="4"></rect>
      <text x=${x} y=${y + 14} text-anchor="middle" class="label">${label}</text>
      <text x=${x} y=${y + 29} text-anchor="middle" class="hash">${short(value, 16)}</text><title>${value}</title></g>`;
  const yOf = (row: number) => H - (row + 1) * rowH + 10;
  const parts = [box(cx, yOf(0), `leaf ${p.leafIndex}`, p.leafHash, 'node leaf')];
  p.steps.forEach((s, i) => {
    const y = yOf(i + 1);
    const sx = s.side === 'left' ? cx - 160 : cx + 160;
    parts.push(svg`<line x1=${cx} y1=${yOf(i)} x2=${cx} y2=${y + 36}></line>`);
    parts.push(svg`<line x1=${sx} y1=${y + 18} x2=${cx} y2=${y + 18}></line>`);
    parts.push(box(sx, y, `sibling (${s.side})`, s.sibling, 'node sibling'));
    parts.push(box(cx, y, `step ${i + 1}`, s.result, 'node path'));
  });
  const top = yOf(p.steps.length + 1);
  parts.push(svg`<line x1=${cx} y1=${yOf(p.steps.length)} x2=${cx} y2=${top + 36}></line>`);
  parts.push(
    box(
      cx,
      top,
      `root, tree size ${p.checkpoint.treeSize}`,
      p.checkpoint.rootHash ?? '',
      p.verified ? 'node root ok' : 'node root bad',
    ),
  );
  return html`<svg
      class="merkle"
      viewBox="0 0 ${W} ${H}"
      role="img"
      aria-label="Merkle inclusion path of ${p.steps.length} steps from leaf ${p.leafIndex} to the root of tree size ${p.checkpoint.treeSize}"
    >
      ${parts}
    </svg>
    <ol class="proof-steps">
      ${p.steps.map((s, i) => html`<li>step ${i + 1}: sibling on the ${s.side} <code>${s.sibling}</code> → <code>${s.result}</code></li>`)}
    </ol>`;
}
