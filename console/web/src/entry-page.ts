import { html, nothing } from 'lit';
import { entriesHref } from './api.js';
import type {
  EntryDetailResponse as EntryDetail,
  GraphRulesView,
  HandoffsView,
  InclusionView as Inclusion,
  PackItem,
  PackRulesView,
  ReplayView,
} from '../../../core/console-api/index.js';
import type { SignedEntry as Entry } from '../../../core/ledger/index.js';
import { correlationText, visible } from './format.js';
import { LightElement, tableHead } from './light-element.js';
import { load, shown, type Load } from './loader.js';
import { merklePath } from './merkle-path.js';
import { graphRunEntrySection, graphRunFacts, recordFacts } from './graph-entry.js';

const SIGNATURE_TEXT: Record<string, string> = {
  ok: 'valid: verifies under the pinned entry key',
  'no-policy': 'not checked: no trust policy',
  'unknown-key': 'INVALID: signed by a key the trust policy does not pin',
  'key-not-valid-at-seq': 'INVALID: the key is not valid at this position',
  'signature-mismatch': 'INVALID: the signature does not verify',
};

export class EntryPage extends LightElement {
  static override properties = {
    requestId: { attribute: false },
    data: { state: true },
    replay: { state: true },
    rules: { state: true },
    handoffs: { state: true },
    graphRules: { state: true },
  };
  requestId = '';
  data: Load<EntryDetail> = { state: 'loading' };
  replay: Load<ReplayView> | null = null;
  rules: Load<PackRulesView> | null = null;
  handoffs: Load<HandoffsView> | null = null;
  graphRules: Load<GraphRulesView> | null = null;
  private loaded: string | null = null;

  protected override willUpdate(): void {
    if (this.loaded === this.requestId) return;
    const id = this.requestId;
    this.loaded = id;
    this.replay = null;
    this.rules = null;
    this.handoffs = null;
    this.graphRules = null;
    const current = () => this.loaded === id;
    const at = (api: string) => `/api/${api}/${encodeURIComponent(id)}`;
    void load<EntryDetail>(at('entry'), (l) => (this.data = l), current).then((value) => {
      if (value?.entry?.pack) void load<PackRulesView>(at('pack-rules'), (l) => (this.rules = l), current);
      if (value?.entry?.kind === 'disposition' || value?.entry?.kind === 'graph-run')
        void load<HandoffsView>(at('handoffs'), (l) => (this.handoffs = l), current);
      if (value?.entry?.kind === 'graph-run')
        void load<GraphRulesView>(at('graph-rules'), (l) => (this.graphRules = l), current);
    });
  }

  private fannedOut() {
    if (this.handoffs === null) return nothing;
    return html`<section aria-labelledby="handoffs-h">
      <h2 id="handoffs-h">Handoffs it fanned out</h2>
      <p class="muted">
        Derived from the signed entry exactly as the deliver function sends them (ADR 0233); the console never receives
        from a queue.
      </p>
      ${shown(this.handoffs, (v) => this.handoffTable(v))}
    </section>`;
  }

  private handoffTable(v: HandoffsView) {
    if (v.none !== null) return html`<p data-handoffs="0">None: ${visible(v.none)}.</p>`;
    // A graph run's handoffs come from leaves at any depth: each row names the instance path it came from.
    const fromLeaf = v.handoffs.some((h) => h.instancePath !== undefined);
    return html`<table class="handoffs" data-handoffs=${v.handoffs.length}>
        ${tableHead(['#', ...(fromLeaf ? ['From node'] : []), 'Shape', 'Route', 'Queue', 'Handoff id', 'In the queue now'])}
        <tbody>
          ${v.handoffs.map(
            (h) =>
              html`<tr>
                <td>${h.routeIndex}</td>
                ${fromLeaf ? html`<td class="handoff-from"><code>${visible(h.instancePath)}</code></td>` : nothing}
                <td>${visible(h.shape)}</td>
                <td>
                  ${visible(h.routeKey ?? 'none')}${h.destination ? html` <span class="muted">(${visible(h.destination)})</span>` : nothing}
                </td>
                <td>
                  ${h.queue === null ? html`<span class="muted">not known</span>` : html`<code>${visible(h.queue)}</code>`}
                </td>
                <td><code class="handoff-id">${h.handoffId}</code></td>
                <td>${h.depth === null ? '—' : `${h.depth.visible} visible, ${h.depth.inFlight} in flight`}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <p class="muted">Queues: ${visible(v.routes)}.</p>`;
  }

  private packRules() {
    if (this.rules === null) return nothing;
    return html`<section aria-labelledby="rules-h">
      <h2 id="rules-h">The pack's rules that fired</h2>
      ${
        this.rules.state === 'loading'
          ? html`<p class="muted" role="status">Reading the pack from the registry and replaying the request…</p>`
          : shown(this.rules, (v) => this.rulesBody(v))
      }
    </section>`;
  }

  private rulesBody(v: PackRulesView) {
    if (!v.registered) return html`<p class="bad" data-pack-registered="false">${visible(v.reason)}</p>`;
    const fired = v.fired;
    const anchor = (kind: string, id: string) => `${kind}-${encodeURIComponent(id)}`;
    const firedList = (kind: string, ids: readonly string[]) =>
      ids.map((id) => html`<li><a href=${`#${anchor(kind, id)}`} data-fired=${id}>${visible(id)}</a></li>`);
    return html`<div data-pack-registered="true">
      <p>
        The pack registry holds the pack's exact bytes (sha256:<code>${v.digest}</code>).
        ${
          fired.known
            ? html`Replaying the request (${visible(fired.replay)}) stopped at §8 step ${visible(fired.terminatedAt)};
              these fired:`
            : html`<span class="muted" data-fired-unknown
                >Which rules fired is not known: ${visible(fired.reason)}</span
              >`
        }
      </p>
      ${
        fired.known
          ? fired.rules.length + fired.exceptions.length === 0
            ? html`<p class="muted" data-fired="none">No rule or exception was true.</p>`
            : html`<ul class="fired">
                ${firedList('rule', fired.rules)} ${firedList('exception', fired.exceptions)}
              </ul>`
          : nothing
      }
      <details open>
        <summary>Every rule and exception of the registered pack</summary>
        ${this.items('rule', v.rules, fired.known ? fired.rules : [])}
        ${this.items('exception', v.exceptions, fired.known ? fired.exceptions : [])}
      </details>
    </div>`;
  }

  private items(kind: string, items: readonly PackItem[], fired: readonly string[]) {
    return items.map(
      (r) =>
        html`<div class="pack-item" id=${`${kind}-${encodeURIComponent(r.id)}`} data-rule=${r.id}>
          <h3>
            ${kind} <code>${visible(r.id)}</code> → ${visible(r.yields)}
            ${fired.includes(r.id) ? html`<strong class="ok">fired</strong>` : nothing}
          </h3>
          ${r.description !== null ? html`<p>${visible(r.description)}</p>` : nothing}
          <pre class="body">${visible(r.definition)}</pre>
        </div>`,
    );
  }

  private runReplay(): void {
    void load<ReplayView>(`/api/replay/${encodeURIComponent(this.requestId)}`, (l) => (this.replay = l));
  }

  override render() {
    return html`<h1 tabindex="-1">Entry <span class="request-id">${visible(this.requestId)}</span></h1>
      ${shown(this.data, (d) => this.body(d))}`;
  }

  private body(d: EntryDetail) {
    const e = d.entry;
    return html`<p>
        Stored at log <a href=${entriesHref({ log: d.logId })}>${visible(d.logId)}</a>, seq ${d.seq}; entry hash
        <code>${d.entryHash}</code>.
      </p>
      ${
        d.duplicates.length
          ? html`<p class="bad" role="note">
              This request id is recorded ${d.duplicates.length} more time(s):
              ${d.duplicates.map((x) => html`${visible(x.logId)}/${x.seq} `)}(verify reports duplicate-request).
            </p>`
          : nothing
      }
      ${
        e === null
          ? html`<p class="bad">
              The stored bytes are not a readable entry: ${visible(d.unreadable?.code)} —
              ${visible(d.unreadable?.detail)}
            </p>`
          : this.entry(e, d)
      }
      ${this.fannedOut()} ${this.packRules()} ${this.proof(d)}
      <section aria-labelledby="replay-h">
        <h2 id="replay-h">Replay</h2>
        <p>
          Re-runs the recorded request through this evaluator and compares the result with the entry (docket replay).
        </p>
        <button type="button" @click=${this.runReplay} ?disabled=${this.replay?.state === 'loading'}>Replay</button>
        ${this.replay === null ? nothing : shown(this.replay, (r) => this.replayResult(r))}
      </section>
      <details ?open=${e === null}>
        <summary>Stored bytes</summary>
        <pre class="body">${visible(d.body)}</pre>
      </details>`;
  }

  private result(e: Entry) {
    if (e.kind === 'graph-run') return graphRunEntrySection(e, this.graphRules);
    if (e.kind === 'disposition' && e.disposition) {
      const dsp = e.disposition;
      return html`<dl class="result">
        <dt>Disposition</dt>
        <dd class="disposition-kind">
          ${visible(dsp.kind)}${dsp.kind === 'outcome' ? html` — outcome <strong class="outcome">${visible(dsp.outcomeId)}</strong>` : nothing}
        </dd>
        <dt>Reasons</dt>
        <dd>
          ${
            dsp.reasons.length
              ? html`<ul>
                  ${dsp.reasons.map((r) => html`<li>${visible(r)}</li>`)}
                </ul>`
              : 'none'
          }
        </dd>
        <dt>Handoff</dt>
        <dd>
          ${visible(dsp.handoff.state)}${dsp.handoff.triggeredBy ? html`, triggered by ${dsp.handoff.triggeredBy.map((t) => visible(t)).join(', ')}` : nothing}
          ${
            dsp.handoff.routes?.length
              ? html`<ul class="routes">
                  ${dsp.handoff.routes.map((r) => html`<li>${visible(r.kind)}: ${visible(r.name)}</li>`)}
                </ul>`
              : nothing
          }
        </dd>
      </dl>`;
    }
    if (e.kind === 'evaluation-error' && e.error)
      return html`<dl class="result">
        <dt>Evaluation error</dt>
        <dd>${visible(e.error.class)} (${visible(e.error.phase)}), code <code>${visible(e.error.code)}</code></dd>
        <dt>Message</dt>
        <dd class="message">${visible(e.error.message)}</dd>
      </dl>`;
    if (e.kind === 'admission-refusal')
      return html`<dl class="result">
        <dt>Admission refusal</dt>
        <dd><code>${visible(e.refusal.code)}</code></dd>
        <dt>Message</dt>
        <dd class="message">${visible(e.refusal.message)}</dd>
      </dl>`;
    return nothing;
  }

  private entry(e: Entry, d: EntryDetail) {
    const sig = d.signature ?? 'no-policy';
    const signature = html`<span class=${sig === 'ok' ? 'ok' : 'bad'} data-signature=${sig}
        >${SIGNATURE_TEXT[sig] ?? sig}</span
      >, key
      <code>${visible(e.keyId)}</code
      >${d.policyProblem ? html` <span class="muted">(${visible(d.policyProblem)})</span>` : nothing}`;
    const decided = html`<section aria-labelledby="result-h">
      <h2 id="result-h">What was decided</h2>
      ${this.result(e)}
    </section>`;
    if (e.kind === 'graph-run') return html`${decided} ${graphRunFacts(e, signature)}`;
    return html`${decided}
      <section aria-labelledby="facts-h">
        <h2 id="facts-h">What it was decided on</h2>
        <dl class="facts">
          <dt>Pack</dt>
          <dd class="pack">
            ${
              e.pack
                ? html`<a href=${entriesHref({ pack: e.pack.id ?? e.pack.digest })}
                      >${visible(e.pack.id ?? '(unread)')}</a
                    >
                    version ${visible(e.pack.version ?? '?')}, digest <code>sha256:${e.pack.digest}</code>`
                : 'none (refused before a pack was found)'
            }
          </dd>
          <dt>Spec version</dt>
          <dd>${visible(e.specVersion)}</dd>
          ${
            // ADR 0220: a /2 entry was evaluated with draft grammar; the auditor's policy decides whether that is allowed.
            e.draftFeatures !== undefined
              ? html`<dt>Draft features</dt>
                  <dd class="draft-features">${e.draftFeatures.map((f) => visible(f)).join(', ')}</dd>`
              : nothing
          }
          <dt>Correlation</dt>
          <dd class="correlation">${visible(correlationText(e.correlation))}</dd>
          <dt>Request digest</dt>
          <dd><code>${e.requestDigest}</code></dd>
          <dt>Facts digest</dt>
          <dd><code>${visible(e.factsDigest)}</code></dd>
          <dt>Evidence digest</dt>
          <dd><code>${visible(e.evidenceDigest)}</code></dd>
          ${
            e.kind === 'disposition'
              ? html`<dt>Disposition digest</dt>
                  <dd><code>${e.dispositionDigest}</code></dd>`
              : nothing
          }
          ${recordFacts(e, signature)}
        </dl>
      </section>`;
  }

  private proof(d: EntryDetail) {
    const inc = d.inclusion;
    let body;
    if (inc === null) body = html`<p class="bad">The log has no checkpoint: nothing anchors this entry yet.</p>`;
    else if (!('steps' in inc))
      body = html`<p class="muted">
        The newest checkpoint (tree size ${inc.checkpoint.treeSize}) predates this entry; the next checkpoint will cover
        it.
      </p>`;
    else body = this.inclusion(inc);
    return html`<section aria-labelledby="proof-h">
      <h2 id="proof-h">Inclusion proof against the newest checkpoint</h2>
      ${body}
    </section>`;
  }

  private inclusion(inc: Inclusion) {
    return html`<p data-inclusion=${inc.verified ? 'verified' : 'failed'}>
        <span class=${inc.verified ? 'ok' : 'bad'}
          >${inc.verified ? 'The path leads to the checkpoint root.' : 'The path does NOT lead to the checkpoint root.'}</span
        >
        Checkpoint of tree size ${inc.checkpoint.treeSize}, ${visible(inc.checkpoint.time)}, signature
        <span class=${inc.checkpoint.status === 'ok' ? 'ok' : 'bad'}>${inc.checkpoint.status}</span>.
      </p>
      ${merklePath(inc)}`;
  }

  private replayResult(r: ReplayView) {
    if (!r.available) return html`<p class="muted" data-replay="unavailable">${visible(r.reason)}</p>`;
    const o = r.outcome;
    const label =
      o.result === 'replay-match' ? 'match' : o.result === 'replay-mismatch' ? 'mismatch' : 'not replayable';
    return html`<div class="replay" data-replay=${o.result}>
      <p>
        <strong class=${o.result === 'replay-match' ? 'ok' : 'bad'}>${label}</strong>
        ${o.reason ? html` — <code>${visible(o.reason)}</code> ${visible(o.detail)}` : nothing}
        ${o.work ? html` (work recorded ${o.work.recorded}, replayed ${o.work.replayed})` : nothing}
        ${o.evaluator && o.evaluator !== 'same' ? html` <span class="muted">evaluator: ${visible(o.evaluator)}</span>` : nothing}
      </p>
      ${
        o.differs?.length
          ? html`<table>
              ${tableHead(['Member', 'Recorded', 'Replayed'])}
              <tbody>
                ${o.differs.map(
                  (x) =>
                    html`<tr>
                      <td>${visible(x.member)}</td>
                      <td><code>${visible(JSON.stringify(x.recorded))}</code></td>
                      <td><code>${visible(JSON.stringify(x.replayed))}</code></td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : nothing
      }
      <p class="muted">Compared: ${r.compared.join(', ')}.</p>
    </div>`;
  }
}
customElements.define('entry-page', EntryPage);
