import { html } from 'lit';
import { entriesHref, entryHref } from './api.js';
import type { EntryPage } from '../../../core/console-api/index.js';
import { correlationText, resultText, visible } from './format.js';
import { LightElement, tableHead } from './light-element.js';
import { load, shown, type Load } from './loader.js';

const FILTERS = [
  ['requestId', 'Request id (or its start)'],
  ['log', 'Log'],
  ['result', 'Disposition kind, error class or refusal code'],
  ['outcome', 'Outcome id'],
  ['pack', 'Pack id or digest'],
  ['correlation', 'Correlation (name=value or value)'],
  ['from', 'From (RFC 3339)'],
  ['to', 'To (RFC 3339)'],
] as const;
const KINDS = ['', 'disposition', 'evaluation-error', 'admission-refusal', 'graph-run', 'unreadable'];

export class EntriesPage extends LightElement {
  static override properties = { query: { attribute: false }, data: { state: true } };
  query = new URLSearchParams();
  data: Load<EntryPage> = { state: 'loading' };
  private loaded: string | null = null;

  protected override willUpdate(): void {
    const key = this.query.toString();
    if (key === this.loaded) return;
    this.loaded = key;
    void load<EntryPage>(
      `/api/entries?${key}`,
      (l) => (this.data = l),
      () => this.loaded === key,
    );
  }

  private current(): Record<string, string> {
    return Object.fromEntries(this.query.entries());
  }

  private onFilter(ev: SubmitEvent): void {
    ev.preventDefault();
    const form = new FormData(ev.target as HTMLFormElement);
    const q: Record<string, string> = {};
    for (const [k, v] of form.entries()) if (typeof v === 'string' && v.trim() !== '') q[k] = v.trim();
    this.dispatchEvent(new CustomEvent('navigate', { detail: entriesHref(q), bubbles: true }));
  }

  override render() {
    const q = this.current();
    return html`<h1 tabindex="-1">Entries</h1>
      <form class="filters" @submit=${this.onFilter} aria-label="Filter entries">
        <label
          >Kind
          <select name="kind">
            ${KINDS.map((k) => html`<option value=${k} ?selected=${q.kind === k}>${k === '' ? 'any' : k}</option>`)}
          </select>
        </label>
        ${FILTERS.map(([name, label]) => html`<label>${label} <input name=${name} .value=${q[name] ?? ''} /></label>`)}
        <button type="submit">Apply filters</button>
        <a href="/entries">Clear</a>
      </form>
      ${shown(this.data, (p) => this.table(p, q))}`;
  }

  private table(p: EntryPage, q: Record<string, string>) {
    const pages = Math.max(1, Math.ceil(p.total / p.pageSize));
    const pageLink = (n: number, label: string) =>
      n < 0 || n >= pages
        ? html`<span class="muted">${label}</span>`
        : html`<a href=${entriesHref({ ...q, page: String(n) })} rel=${n > p.page ? 'next' : 'prev'}>${label}</a>`;
    return html`<p role="status" data-total=${p.total}>
        ${p.total.toLocaleString('en-US')} entries match; page ${p.page + 1} of ${pages}, newest first.
      </p>
      <table class="entries">
        ${tableHead(['Time', 'Request', 'Result', 'Pack', 'Correlation', 'Log / seq'])}
        <tbody>
          ${p.entries.map(
            (e) =>
              html`<tr>
                <td>${visible(e.time)}</td>
                <td><a class="request" href=${entryHref(e.requestId)}>${visible(e.requestId)}</a></td>
                <td>${visible(resultText(e))}</td>
                <td>
                  ${visible(e.packId ?? (e.packDigest ? e.packDigest.slice(0, 12) : null))}${e.packVersion ? html`@${visible(e.packVersion)}` : ''}
                </td>
                <td>${visible(correlationText(e.correlation))}</td>
                <td>${visible(e.logId)} / ${e.seq}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <nav class="pager" aria-label="Pages">
        ${pageLink(p.page - 1, '← Newer')} ${pageLink(p.page + 1, 'Older →')}
      </nav>`;
  }
}
customElements.define('entries-page', EntriesPage);
