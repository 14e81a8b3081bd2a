import { html, nothing } from 'lit';
import { entryHref } from './api.js';
import type { LinkedFinding as Finding, VerifyVerdict as Verdict } from '../../../core/console-api/index.js';
import { visible } from './format.js';
import { LightElement } from './light-element.js';

type State =
  | { readonly state: 'idle' }
  | { readonly state: 'running'; readonly checked: number; readonly total: number }
  | { readonly state: 'verdict'; readonly verdict: Verdict }
  | { readonly state: 'no-verdict'; readonly code: string; readonly detail: string }
  | { readonly state: 'failed' };

/** Members of a finding besides its code and place, shown as "name value" (all from the verdict, docs/verify.md). */
const details = (f: Finding) =>
  Object.entries(f)
    .filter(([k]) => !['code', 'logId', 'seq', 'treeSize', 'entryRequestId'].includes(k))
    .filter(([k]) => 'logId' in f || k !== 'requestId')
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');

/** Where a finding is: a log position, or (a request without an entry) the archived request it names. */
const place = (f: Finding) =>
  'logId' in f
    ? html`log
      ${visible(f.logId)}${'seq' in f ? html`, seq ${f.seq}` : nothing}${'treeSize' in f ? html`, tree size ${f.treeSize}` : nothing}`
    : html`request ${visible(f.requestId)}`;

/**
 * `/verify`: runs `docket verify` on the server and follows it through server-sent events (GET /api/verify), drawing
 * a progress bar, then the verdict and its findings grouped by code, each linked to its entry.
 */
export class VerifyPage extends LightElement {
  static override properties = { run: { state: true } };
  run: State = { state: 'idle' };
  private source: EventSource | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.start();
  }

  override disconnectedCallback(): void {
    this.source?.close();
    super.disconnectedCallback();
  }

  private start(): void {
    this.source?.close();
    this.run = { state: 'running', checked: 0, total: 0 };
    const es = new EventSource('/api/verify');
    this.source = es;
    es.addEventListener('progress', (ev) => {
      const p = JSON.parse((ev as MessageEvent<string>).data) as { checked: number; total: number };
      this.run = { state: 'running', ...p };
    });
    es.addEventListener('verdict', (ev) => {
      es.close();
      this.run = { state: 'verdict', verdict: JSON.parse((ev as MessageEvent<string>).data) as Verdict };
    });
    es.addEventListener('no-verdict', (ev) => {
      es.close();
      const nv = JSON.parse((ev as MessageEvent<string>).data) as { code: string; detail: string };
      this.run = { state: 'no-verdict', ...nv };
    });
    es.addEventListener('error', () => {
      if (this.run.state === 'running') this.run = { state: 'failed' };
      es.close();
    });
  }

  override render() {
    return html`<h1 tabindex="-1">Verify</h1>
      <p>Checks every entry, chain link and checkpoint against the trust policy, as <code>docket verify</code> does.</p>
      ${this.body()}
      <p>
        <button type="button" @click=${() => this.start()} ?disabled=${this.run.state === 'running'}>
          Verify again
        </button>
      </p>`;
  }

  private body() {
    const r = this.run;
    if (r.state === 'idle') return nothing;
    if (r.state === 'running')
      return html`<label for="verify-progress"
          >Entries checked: ${r.checked.toLocaleString('en-US')} of ${r.total.toLocaleString('en-US')}</label
        >
        <progress id="verify-progress" max=${Math.max(1, r.total)} .value=${r.checked}></progress>`;
    if (r.state === 'failed')
      return html`<p class="error" role="alert">The connection to the console server was lost.</p>`;
    if (r.state === 'no-verdict')
      return html`<p class="verdict bad" role="alert" data-verify-ok="false" data-no-verdict=${r.code}>
        No verdict: ${visible(r.code)} — ${visible(r.detail)}
      </p>`;
    const v = r.verdict;
    const groups = new Map<string, Finding[]>();
    for (const f of v.findings) groups.set(f.code, [...(groups.get(f.code) ?? []), f]);
    return html`<p class="verdict ${v.ok ? 'ok' : 'bad'}" role="status" data-verify-ok=${v.ok ? 'true' : 'false'}>
        ${v.ok ? 'OK: the ledger verifies.' : `NOT OK: ${v.findings.length} finding(s).`}
      </p>
      <p class="muted">
        ${v.summary.entries.toLocaleString('en-US')} entries in ${v.summary.logs} logs, ${v.summary.checkpoints}
        checkpoints, ${v.summary.entrySignaturesChecked.toLocaleString('en-US')} entry signatures checked
        (${v.summary.mode} mode). Anchors:
        ${v.summary.anchors.map((a) => `${a.logId} at tree size ${a.treeSize}`).join('; ') || 'none'}.
      </p>
      ${[...groups].map(
        ([code, fs]) =>
          html`<section class="finding-group" data-code=${code}>
            <h2>${visible(code)} (${fs.length})</h2>
            <ul>
              ${fs.map(
                (f) =>
                  html`<li class="finding">
                    ${place(f)}
                    ${
                      f.entryRequestId !== null
                        ? html` — <a href=${entryHref(f.entryRequestId)}>entry ${visible(f.entryRequestId)}</a>`
                        : nothing
                    }
                    <span class="muted">${visible(details(f))}</span>
                  </li>`,
              )}
            </ul>
          </section>`,
      )}`;
  }
}
customElements.define('verify-page', VerifyPage);
