/**
 * core/graph-view: the console's drawing of a graph run (docs/console.md "Graph runs", ADR 0341) — a strict reader
 * of the run's result object, a deterministic layered layout and an SVG model whose strings are all text. Pure; it
 * imports nothing but core/result.ts, so the console page can import it.
 */
export { readGraphRunView, type GraphRunView } from './read.js';
export { layoutGraphRun } from './layout.js';
export { graphSvg, svgMarkup, summary, type SvgElement } from './svg.js';
export { showBidiControls } from './visible-text.js';
