import { html } from 'lit';
import { entriesHref, getJson } from './api.js';
import type { Overview, OverviewChart } from './api-types.js';
import { stackedBars } from './chart.js';
import { visible } from './format.js';
import { LightElement, short } from './light-element.js';
import { failure, shown, type Load } from './loader.js';

export class OverviewPage extends LightElement {
  static override properties = { data: { state: true }, chart: { state: true } };
  data: Load<Overview> = { state: 'loading' };
  chart: Load<OverviewChart> = { state: 'loading' };

  override connectedCallback(): void {
    super.connectedCallback();
    // The logs paint first; the charts need every entry indexed and follow when ready (ADR 0230).
    getJson<Overview>('/api/overview').then(
      (value) => (this.data = { state: 'ok', value }),
      (e: unknown) => (this.data = failure(e)),
    );
    getJson<OverviewChart>('/api/overview/chart').then(
      (value) => (this.chart = { state: 'ok', value }),
      (e: unknown) => (this.chart = failure(e)),
    );
  }

  override render() {
    return html`<h1 tabindex="-1">Overview</h1>
      ${shown(this.data, (o) => this.body(o))}`;
  }

  private body(o: Overview) {
    return html`<p class="source" data-overview-ready="true">
        Reading ${visible(o.source)}: <strong>${o.entries.toLocaleString('en-US')}</strong> entries in ${o.logs.length}
        logs. ${visible(o.retention)}.
      </p>
      <section aria-labelledby="logs-h">
        <h2 id="logs-h">Logs, heads and newest checkpoints</h2>
        <table class="logs">
          <thead>
            <tr>
              <th scope="col">Log</th>
              <th scope="col">Entries</th>
              <th scope="col">Head</th>
              <th scope="col">Newest checkpoint</th>
              <th scope="col">Witnesses</th>
            </tr>
          </thead>
          <tbody>
            ${o.logs.map(
              (l) =>
                html`<tr>
                  <th scope="row"><a href=${entriesHref({ log: l.logId })}>${visible(l.logId)}</a></th>
                  <td>${l.entries.toLocaleString('en-US')}</td>
                  <td>
                    ${
                      l.head
                        ? html`seq ${l.head.seq} <code title=${l.head.entryHash}>${short(l.head.entryHash)}</code>
                            <span class="muted">${visible(l.head.time)}</span>`
                        : '—'
                    }
                  </td>
                  <td>
                    ${
                      l.checkpoint
                        ? html`tree size ${l.checkpoint.treeSize}
                            <span class=${l.checkpoint.status === 'ok' ? 'ok' : 'bad'}>${l.checkpoint.status}</span>
                            <span class="muted">${visible(l.checkpoint.time)}</span>
                            ${l.checkpoint.treeSize < l.entries ? html`<span class="muted">(${l.entries - l.checkpoint.treeSize} newer entries not yet covered)</span>` : ''}`
                        : html`<span class="bad">none</span>`
                    }
                  </td>
                  <td>
                    ${
                      l.witnesses
                        ? html`${l.witnesses.cosignatures} cosignatures on tree size ${l.witnesses.treeSize}`
                        : html`<span class="muted">no checkpoint notes</span>`
                    }
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="charts-h" class="charts">
        <h2 id="charts-h">Entries over time</h2>
        ${
          this.chart.state === 'loading'
            ? html`<p class="muted" role="status">Counting every entry per kind and per pack…</p>`
            : shown(this.chart, (c) => this.charts(c))
        }
      </section>`;
  }

  private charts({ indexed, chart }: OverviewChart) {
    return html`<div data-chart-ready="true">
      ${
        chart.start === null
          ? html`<p class="muted">No entries yet.</p>`
          : html`<p class="muted">Over the ${indexed.toLocaleString('en-US')} entries read.</p>
              ${stackedBars('Entries per kind', chart.byKind, chart.start, chart.end)}
              ${stackedBars('Entries per pack', chart.byPack, chart.start, chart.end)}`
      }
    </div>`;
  }
}
customElements.define('overview-page', OverviewPage);
