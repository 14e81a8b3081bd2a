import { html, nothing } from 'lit';
import { entriesHref } from './api.js';
import type { Overview, OverviewChart, WitnessPolicySummary, WitnessView } from '../../../core/console-api/index.js';
import { stackedBars } from './chart.js';
import { visible } from './format.js';
import { LightElement, short, tableHead } from './light-element.js';
import { load, shown, type Load } from './loader.js';

export class OverviewPage extends LightElement {
  static override properties = { data: { state: true }, chart: { state: true }, witnesses: { state: true } };
  data: Load<Overview> = { state: 'loading' };
  chart: Load<OverviewChart> = { state: 'loading' };
  witnesses: Load<WitnessView> | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    // The logs paint first; the charts need every entry indexed and follow when ready (ADR 0230).
    void load<Overview>('/api/overview', (l) => (this.data = l)).then((value) => {
      // With a witness policy, the judgement runs verify over the whole ledger: asked for after the first paint.
      if (value !== null && value.witnessPolicy !== null)
        void load<WitnessView>('/api/witnesses', (l) => (this.witnesses = l));
    });
    void load<OverviewChart>('/api/overview/chart', (l) => (this.chart = l));
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
          ${tableHead(['Log', 'Entries', 'Head', 'Newest checkpoint', 'Witnesses'])}
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
      <section aria-labelledby="witness-h">
        <h2 id="witness-h">Witnesses</h2>
        ${this.witnessSection(o.witnessPolicy)}
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

  private witnessSection(policy: WitnessPolicySummary | null) {
    if (policy === null)
      return html`<p class="muted" data-witness-policy="none">
        No witness policy was given (<code>docket console --witnesses &lt;witness-policy.json&gt;</code>): the
        cosignatures above are counted, not judged against a quorum.
      </p>`;
    const w = this.witnesses;
    return html`<p data-witness-policy="given">
        Witness policy: a quorum of ${policy.quorum} of ${policy.witnesses.length}
        (${policy.witnesses.map((n) => visible(n)).join(', ')}), cosigned within ${policy.maxAgeSeconds} s.
      </p>
      ${
        w === null || w.state === 'loading'
          ? html`<p class="muted" role="status">
              Judging every log against the witness policy (verify reads every entry)…
            </p>`
          : shown(w, (v) => this.witnessJudgement(v, policy))
      }`;
  }

  private witnessJudgement(w: WitnessView, policy: WitnessPolicySummary) {
    if (w.policy === null) return html`<p class="muted" data-witness-policy="none">No witness policy was given.</p>`;
    const verdict = w.verdict;
    return html`<table class="witnesses" data-witnesses-ready="true">
        ${tableHead(['Log', 'Newest checkpoint', 'Cosigned by', 'Policy'])}
        <tbody>
          ${(w.logs ?? []).map(
            (l) =>
              html`<tr data-witness-log=${l.logId} data-meets-policy=${String(l.meetsPolicy)}>
                <th scope="row">${visible(l.logId)}</th>
                <td>${l.newest ? html`tree size ${l.newest.treeSize}` : html`<span class="bad">none</span>`}</td>
                <td>
                  ${l.newest ? `${l.newest.cosigners.length} of ${policy.witnesses.length}` : '—'}
                  ${l.newest?.cosigners.length ? html`<span class="muted">(${l.newest.cosigners.map((n) => visible(n)).join(', ')})</span>` : nothing}
                </td>
                <td>
                  <span class=${l.meetsPolicy ? 'ok' : 'bad'}
                    >${l.meetsPolicy ? 'meets the policy' : l.newest?.witnessed ? 'stale' : `no quorum of ${policy.quorum}`}</span
                  >
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
      ${
        verdict === undefined
          ? nothing
          : verdict.ok
            ? verdict.findings.length === 0
              ? html`<p class="ok" data-witness-findings="0">
                  verify --witnesses: no rollback, stale or unwitnessed anchor.
                </p>`
              : html`<ul class="findings" data-witness-findings=${verdict.findings.length}>
                  ${verdict.findings.map(
                    (f) =>
                      html`<li data-finding=${f.code}>
                        <code>${visible(f.code)}</code> log ${visible(f.logId)}
                        ${'treeSize' in f ? html`tree size ${f.treeSize}` : nothing}
                        <span class="muted">${visible(JSON.stringify(f))}</span>
                      </li>`,
                  )}
                </ul>`
            : html`<p class="bad" data-witness-findings="no-verdict">
                verify reached no verdict: ${visible(verdict.noVerdict.code)} — ${visible(verdict.noVerdict.detail)}
              </p>`
      }`;
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
