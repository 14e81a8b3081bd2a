import { html, nothing } from 'lit';
import { entryHref } from './api.js';
import { visible } from './format.js';
import { LightElement } from './light-element.js';
import { checkReceipt, RECEIPT_INPUTS, type ReceiptCheck } from './receipt-check.js';

/** The files the page takes: the receipt and the trust policy (required), a witness policy, the input files. */
const SLOTS = ['receipt', 'policy', 'witnesses', ...RECEIPT_INPUTS] as const;
type Slot = (typeof SLOTS)[number];

const LABELS: Record<Slot, string> = {
  receipt: 'Receipt (docket.receipt/1)',
  policy: 'Trust policy',
  witnesses: 'Witness policy (optional)',
  pack: 'Pack file (optional)',
  facts: 'Facts file (optional)',
  evidence: 'Evidence file (optional)',
  request: 'Request file (optional)',
  graph: 'Graph file, a graph run (optional)',
  inputs: 'Inputs file, a graph run (optional)',
};

/** Which slot a dropped file fills, from its own `format` member (the strict readers judge it afterwards). */
function slotOf(bytes: Uint8Array): Slot | null {
  let format: unknown;
  try {
    format = (JSON.parse(new TextDecoder().decode(bytes)) as { format?: unknown }).format;
  } catch {
    return null;
  }
  if (typeof format !== 'string') return null;
  if (format.startsWith('docket.receipt/')) return 'receipt';
  if (format.startsWith('docket.trust-policy/')) return 'policy';
  if (format.startsWith('docket.witness-policy/')) return 'witnesses';
  return null;
}

/** Members of a finding besides its code, as "name value" (docs/verify.md "Receipts"). */
const details = (f: object): string =>
  Object.entries(f)
    .filter(([k]) => k !== 'code')
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');

/**
 * `/receipt`: the auditor picks or drops a docket.receipt/1 file, a trust policy and optionally a witness policy and
 * the input files, and the page verifies them in the browser with receipt-check.ts — nothing is sent anywhere.
 * Every string from a file is bound as text (ADR 0184).
 */
export class ReceiptPage extends LightElement {
  static override properties = { chosen: { state: true }, result: { state: true }, note: { state: true } };
  chosen: ReadonlyMap<Slot, { readonly name: string; readonly bytes: Uint8Array }> = new Map();
  result: ReceiptCheck | null = null;
  note = '';

  private async take(slot: Slot | null, file: File): Promise<void> {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const s = slot ?? slotOf(bytes);
    if (s === null) {
      this.note = `${file.name}: not a receipt, trust policy or witness policy; choose input files with their fields`;
      return;
    }
    this.note = '';
    this.chosen = new Map(this.chosen).set(s, { name: file.name, bytes });
    this.result = null;
  }

  private readonly onPick = (slot: Slot) => (ev: Event) => {
    const f = (ev.target as HTMLInputElement).files?.[0];
    if (f !== undefined) void this.take(slot, f);
  };

  private readonly onDragOver = (ev: DragEvent) => ev.preventDefault();

  private readonly onDrop = (ev: DragEvent) => {
    ev.preventDefault();
    for (const f of Array.from(ev.dataTransfer?.files ?? [])) void this.take(null, f);
  };

  private verify(): void {
    const receipt = this.chosen.get('receipt');
    const policy = this.chosen.get('policy');
    if (receipt === undefined || policy === undefined) return;
    const witnesses = this.chosen.get('witnesses');
    const inputs: Partial<Record<(typeof RECEIPT_INPUTS)[number], Uint8Array>> = {};
    for (const name of RECEIPT_INPUTS) {
      const f = this.chosen.get(name);
      if (f !== undefined) inputs[name] = f.bytes;
    }
    this.result = checkReceipt({
      receipt: receipt.bytes,
      policy: policy.bytes,
      inputs,
      ...(witnesses ? { witnesses: witnesses.bytes } : {}),
    });
  }

  override render() {
    const ready = this.chosen.has('receipt') && this.chosen.has('policy');
    return html`<h1 tabindex="-1">Receipt</h1>
      <p>
        Verifies a <code>docket.receipt/1</code> in this browser, as <code>docket verify-receipt</code> does: the
        entry's signature and key, the inclusion proof, the checkpoint and its note, the witness quorum when a witness
        policy is given, and each input file against the digest the entry recorded. The files are not sent anywhere.
      </p>
      <div class="drop" @dragover=${this.onDragOver} @drop=${this.onDrop}>
        Drop a receipt, a trust policy or a witness policy here, or choose each file below.
      </div>
      <div class="receipt-files">
        ${SLOTS.map(
          (s) =>
            html`<p>
              <label for="receipt-${s}">${LABELS[s]}</label>
              <input id="receipt-${s}" type="file" @change=${this.onPick(s)} />
              <span class="muted" data-chosen=${s}>${visible(this.chosen.get(s)?.name ?? 'none chosen')}</span>
            </p>`,
        )}
      </div>
      ${this.note === '' ? nothing : html`<p class="error" role="alert">${visible(this.note)}</p>`}
      <p><button type="button" ?disabled=${!ready} @click=${() => this.verify()}>Verify the receipt</button></p>
      ${this.body()}`;
  }

  private body() {
    const r = this.result;
    if (r === null) return nothing;
    if (r.state === 'no-verdict')
      return html`<p class="verdict bad" role="alert" data-receipt-ok="false" data-no-verdict=${r.code}>
        No verdict: ${visible(r.code)} — ${visible(r.detail)}
      </p>`;
    const v = r.verdict;
    return html`<p class="verdict ${v.ok ? 'ok' : 'bad'}" role="status" data-receipt-ok=${v.ok ? 'true' : 'false'}>
        ${v.ok ? 'OK: the receipt verifies.' : `NOT OK: ${v.findings.length} finding(s).`}
      </p>
      ${
        r.subject === null
          ? html`<p class="muted">The receipt's entry is unreadable, so it names no request.</p>`
          : html`<p>
              Entry <a class="receipt-entry" href=${entryHref(r.subject.requestId)}>${visible(r.subject.requestId)}</a>,
              log ${visible(r.subject.logId)}, seq ${r.subject.seq}
            </p>`
      }
      ${
        v.findings.length === 0
          ? nothing
          : html`<ul class="receipt-findings">
              ${v.findings.map(
                (f) =>
                  html`<li class="finding" data-code=${f.code}>
                    ${visible(f.code)} <span class="muted">${visible(details(f))}</span>
                  </li>`,
              )}
            </ul>`
      }
      <p>What <code>docket verify-receipt</code> prints for these files:</p>
      <pre class="receipt-output">${JSON.stringify(v)}</pre>`;
  }
}
customElements.define('receipt-page', ReceiptPage);
