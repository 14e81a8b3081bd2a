import { html } from 'lit';
import { readGraphRunView, type GraphRunView } from '../../../core/graph-view/index.js';
import { ApiError, getJson } from './api.js';
import { graphRunDrawing } from './graph-drawing.js';
import { LightElement } from './light-element.js';

/**
 * `/graph-run`: the graph run the console was started with (`docket console --graph-result <file>`), drawn by
 * graph-drawing.ts.
 */
export class GraphRunPage extends LightElement {
  static override properties = { run: { state: true }, problem: { state: true } };
  run: GraphRunView | null = null;
  problem = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const r = readGraphRunView(await getJson<unknown>('/api/graph-run'));
      if (r.ok) this.run = r.value;
      else this.problem = `${r.error.code}: ${r.error.message}`;
    } catch (e) {
      this.problem =
        e instanceof ApiError && e.status === 404
          ? 'No graph run here: start the console with --graph-result <file> (the saved output of docket graph evaluate).'
          : `could not load the graph run: ${(e as Error).message}`;
    }
  }

  override render() {
    const run = this.run;
    if (run === null)
      return html`<h1 tabindex="-1">Graph run</h1>
        ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : html`<p>Loading…</p>`}`;
    return html`<h1 tabindex="-1">Graph run</h1>
      ${graphRunDrawing(run)}`;
  }
}
customElements.define('graph-run-page', GraphRunPage);
