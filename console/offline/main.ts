/**
 * The offline verification page (docs/console.md "Offline verification"): reads the files the auditor gives, runs
 * verify-offline.ts and shows the verdict, a progress bar and the findings grouped by status. Every string from a
 * file is set as text (textContent), never parsed as HTML; the page's CSP also forbids HTML sinks (Trusted Types).
 */
import './style.css';
import { readWitnessFiles, type Finding, type NoVerdict, type WitnessInputs } from '../../core/ledger/verify/index.js';
import { verifyOffline, type Ed25519Engine } from './verify-offline.js';

type Slot = 'ledger' | 'checkpoints' | 'policy' | 'markers' | 'witnesses';
const SLOTS: readonly Slot[] = ['ledger', 'checkpoints', 'policy', 'markers', 'witnesses'];
const chosen = new Map<Slot, { name: string; bytes: Uint8Array }>();
/** Cosigned notes files (notes exports or witness states), any number. */
const cosigned: { name: string; bytes: Uint8Array }[] = [];

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const el = (tag: string, text?: string): HTMLElement => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
};

/** Which input a dropped file is, from its own format member (the core readers judge it strictly later). */
function slotOf(bytes: Uint8Array): Slot | 'cosigned' | null {
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 4096)));
  const firstLine = head.split('\n', 1)[0] ?? '';
  if (firstLine.includes('"docket.ledger-export/')) return 'ledger';
  let format: unknown;
  try {
    format = (JSON.parse(new TextDecoder().decode(bytes)) as { format?: unknown }).format;
  } catch {
    return null;
  }
  if (typeof format !== 'string') return null;
  if (format.startsWith('docket.checkpoint-export/')) return 'checkpoints';
  if (format.startsWith('docket.trust-policy/')) return 'policy';
  if (format.startsWith('docket.ledger-markers/')) return 'markers';
  if (format.startsWith('docket.witness-policy/')) return 'witnesses';
  if (format.startsWith('docket.checkpoint-notes/') || format.startsWith('docket.witness-state/')) return 'cosigned';
  return null;
}

function showChosen(): void {
  const list = $('chosen');
  list.replaceChildren(
    ...SLOTS.filter((s) => chosen.has(s)).map((s) => el('li', `${s}: ${chosen.get(s)?.name ?? ''}`)),
    ...cosigned.map((c) => el('li', `cosigned: ${c.name}`)),
  );
  // Verify waits for every chosen file to be read: a click while the checkpoints or markers are still being read
  // would judge the ledger without them.
  ($('verify') as HTMLButtonElement).disabled = reading.size > 0 || !(chosen.has('ledger') && chosen.has('policy'));
}

/** File reads in flight (`take`). */
const reading = new Set<Promise<void>>();

function read(slot: Slot | 'cosigned' | null, file: File): void {
  const p = take(slot, file).finally(() => {
    reading.delete(p);
    showChosen();
  });
  reading.add(p);
  showChosen();
}

async function take(slot: Slot | 'cosigned' | null, file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const s = slot ?? slotOf(bytes);
  if (s === null) {
    $('chosen').append(el('li', `${file.name}: not a ledger export, checkpoint export, trust policy or markers file`));
    return;
  }
  if (s === 'cosigned') cosigned.push({ name: file.name, bytes });
  else chosen.set(s, { name: file.name, bytes });
  showChosen();
}

for (const slot of SLOTS) {
  const input = $<HTMLInputElement>(slot);
  input.addEventListener('change', () => {
    const f = input.files?.[0];
    if (f !== undefined) read(slot, f);
  });
}

const cosignedInput = $<HTMLInputElement>('cosigned');
cosignedInput.addEventListener('change', () => {
  cosigned.length = 0;
  for (const f of Array.from(cosignedInput.files ?? [])) read('cosigned', f);
  showChosen();
});

const drop = $('drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  for (const f of Array.from(e.dataTransfer?.files ?? [])) read(null, f);
});

/** One line per finding: its members after the code, as text. */
function describe(f: Finding): string {
  return Object.entries(f)
    .filter(([k]) => k !== 'code')
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
    .join(' · ');
}

function showFindings(findings: readonly Finding[]): void {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    let g = groups.get(f.code);
    if (g === undefined) groups.set(f.code, (g = []));
    g.push(f);
  }
  const out = $('findings');
  out.replaceChildren(
    ...[...groups].map(([code, list]) => {
      const section = el('section');
      section.className = 'group';
      section.dataset.status = code;
      const items = el('ul');
      items.append(...list.map((f) => el('li', describe(f))));
      section.append(el('h3', `${code} (${list.length})`), items);
      return section;
    }),
  );
}

/** No verdict, as `docket verify` prints it (exit 2): the same JSON line. */
function showNoVerdict(noVerdict: NoVerdict): void {
  const verdict = $('verdict');
  verdict.dataset.verifyOk = 'false';
  verdict.textContent = `No verdict (${noVerdict.code}): ${noVerdict.detail}`;
  showFindings([]);
  $('output').textContent = JSON.stringify({ noVerdict });
  $('result').hidden = false;
}

/** `?engine=noble` forces @noble/ed25519 (as in a browser without WebCrypto Ed25519); tests check both engines. */
const engineParam = new URLSearchParams(location.search).get('engine');
const forcedEngine: Ed25519Engine | null = engineParam === 'noble' || engineParam === 'webcrypto' ? engineParam : null;

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

$('verify').addEventListener('click', () => {
  void (async () => {
    const button = $<HTMLButtonElement>('verify');
    await Promise.all(reading);
    const ledger = chosen.get('ledger');
    const policy = chosen.get('policy');
    if (ledger === undefined || policy === undefined) return;
    button.disabled = true;
    $('result').hidden = true;
    $('verdict').dataset.verifyOk = '';
    const progress = $<HTMLProgressElement>('progress');
    const started = performance.now();
    try {
      const markers = chosen.get('markers')?.bytes;
      const witnessPolicy = chosen.get('witnesses');
      let witnesses: WitnessInputs | undefined;
      if (witnessPolicy !== undefined) {
        const nowText = $<HTMLInputElement>('now').value.trim();
        // As `docket verify --now`: RFC 3339 UTC to the second; empty means this computer's clock.
        if (nowText !== '' && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(nowText)) {
          throw new Error('"Now" is an RFC 3339 UTC date-time (YYYY-MM-DDTHH:MM:SSZ)');
        }
        const now = nowText === '' ? Math.floor(Date.now() / 1000) : Date.parse(nowText) / 1000;
        const w = readWitnessFiles(witnessPolicy, cosigned, now);
        if (!w.ok) {
          showNoVerdict(w.error);
          return;
        }
        witnesses = w.value;
      }
      const r = await verifyOffline(
        {
          ledger: ledger.bytes,
          policy: policy.bytes,
          // No checkpoint file: an empty export, so every log fails closed as `docket verify --export` does.
          checkpoints:
            chosen.get('checkpoints')?.bytes ??
            new TextEncoder().encode('{"checkpoints":[],"format":"docket.checkpoint-export/1"}'),
          ...(markers === undefined ? {} : { markers }),
        },
        {
          allSignatures: $<HTMLInputElement>('all-signatures').checked,
          ...(forcedEngine === null ? {} : { engine: forcedEngine }),
          ...(witnesses === undefined ? {} : { witnesses }),
          pace: { every: 2000, pause },
          onProgress: (phase, fraction) => {
            progress.value = fraction;
            $('phase').textContent = phase;
          },
        },
      );
      const seconds = (performance.now() - started) / 1000;
      const verdict = $('verdict');
      if (r.verdict !== null) {
        verdict.dataset.verifyOk = String(r.verdict.ok);
        verdict.textContent = r.verdict.ok
          ? `Verified: ${r.verdict.summary.entries} entries in ${r.verdict.summary.logs} logs, no finding`
          : `Not verified: ${r.verdict.findings.length} finding${r.verdict.findings.length === 1 ? '' : 's'}`;
        showFindings(r.verdict.findings);
      } else {
        showNoVerdict(r.noVerdict as NoVerdict);
      }
      $('engine').textContent =
        `Ed25519 through ${r.engine === 'webcrypto' ? 'WebCrypto' : '@noble/ed25519'}` +
        ` · ${seconds.toFixed(2)} s` +
        (r.engine === 'webcrypto'
          ? ` · ${r.webCryptoChecks} WebCrypto checks${r.secondPass ? ', second pass' : ''}`
          : '');
      $('engine').dataset.engine = r.engine;
      $('engine').dataset.seconds = String(seconds);
      $('engine').dataset.secondPass = String(r.secondPass);
      $('output').textContent = r.output;
      $('result').hidden = false;
    } catch (e) {
      $('verdict').dataset.verifyOk = 'false';
      $('verdict').textContent = `Verification failed: ${e instanceof Error ? e.message : String(e)}`;
      $('result').hidden = false;
    } finally {
      button.disabled = false;
    }
  })();
});
