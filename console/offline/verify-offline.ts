/**
 * Verification of an export in the browser (docs/adr/0186-offline-verification-page.md): the exact
 * core/ledger/verify code `docket verify --export` runs, on the portable crypto port, with Ed25519 through WebCrypto
 * where the browser has it. Its output is the one JSON line the CLI prints.
 *
 * WebCrypto is asynchronous and verification is synchronous, so with WebCrypto the run is speculative: the first
 * pass answers every signature query "valid" and records it; then WebCrypto checks every recorded query. When all are
 * valid, every answer the pass was given was the true one, so its result is the true result. Otherwise a second pass
 * answers from those WebCrypto results (and @noble/ed25519 for a query the first pass never asked).
 */
import {
  installLedgerCrypto,
  portableLedgerCrypto,
  verifyEd25519,
  verifyExportFiles,
  type LedgerCrypto,
  type NoVerdict,
  type Pace,
  type Verdict,
  type VerifyFiles,
  type WitnessInputs,
} from '../../core/ledger/verify/index.js';
import { toHex } from '../../core/ledger/primitives/index.js';
import { verifyAll, webCryptoEd25519Works, type SignatureQuery } from './webcrypto-ed25519.js';

export type Ed25519Engine = 'webcrypto' | 'noble';

export interface OfflineOptions {
  readonly allSignatures: boolean;
  /** Force an engine (tests; a browser without WebCrypto Ed25519 gets 'noble' anyway). */
  readonly engine?: Ed25519Engine;
  readonly pace?: Pace;
  /** `--witnesses`: the witness policy, the cosigned notes and the clock (readWitnessFiles). */
  readonly witnesses?: WitnessInputs;
  /** Called with what is being done and the fraction done (0–1). */
  readonly onProgress?: (phase: string, fraction: number) => void;
}

export interface OfflineResult {
  readonly engine: Ed25519Engine;
  /** Exactly the line `docket verify` prints on stdout, without the newline. */
  readonly output: string;
  readonly verdict: Verdict | null;
  readonly noVerdict: NoVerdict | null;
  /** Signature checks WebCrypto answered, and whether a second pass was needed. */
  readonly webCryptoChecks: number;
  readonly secondPass: boolean;
}

const NEWLINE = 0x0a;
function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === NEWLINE) n++;
  return Math.max(1, n);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function runOnce(
  files: VerifyFiles,
  port: LedgerCrypto,
  options: OfflineOptions,
  phase: string,
  total: number,
): Promise<Awaited<ReturnType<typeof verifyExportFiles>>> {
  const previous = installLedgerCrypto(port);
  try {
    return await verifyExportFiles(files, {
      allSignatures: options.allSignatures,
      progressEvery: 1000,
      onProgress: (n) => options.onProgress?.(phase, Math.min(1, n / total)),
      ...(options.pace === undefined ? {} : { pace: options.pace }),
      ...(options.witnesses === undefined ? {} : { witnesses: options.witnesses }),
    });
  } finally {
    installLedgerCrypto(previous);
  }
}

export async function verifyOffline(files: VerifyFiles, options: OfflineOptions): Promise<OfflineResult> {
  const total = countLines(files.ledger);
  const engine: Ed25519Engine = options.engine ?? ((await webCryptoEd25519Works()) ? 'webcrypto' : 'noble');
  let result;
  let webCryptoChecks = 0;
  let secondPass = false;
  if (engine === 'noble') {
    result = await runOnce(files, portableLedgerCrypto, options, 'verifying', total);
  } else {
    const queries: SignatureQuery[] = [];
    const recording: LedgerCrypto = {
      ...portableLedgerCrypto,
      name: 'webcrypto (recording)',
      ed25519Verify: (signature, message, publicKey) => {
        queries.push({ signature, message, publicKey });
        return true;
      },
    };
    result = await runOnce(files, recording, options, 'verifying', total);
    options.onProgress?.('checking signatures (WebCrypto)', 0);
    const answers = await verifyAll(queries, (n) =>
      options.onProgress?.('checking signatures (WebCrypto)', n / Math.max(1, queries.length)),
    );
    webCryptoChecks = queries.length;
    if (result.ok && answers.some((a) => !a)) {
      secondPass = true;
      const known = new Map<string, { message: Uint8Array; ok: boolean }[]>();
      queries.forEach((q, i) => {
        const id = `${toHex(q.signature)}:${toHex(q.publicKey)}`;
        let list = known.get(id);
        if (list === undefined) known.set(id, (list = []));
        list.push({ message: q.message, ok: answers[i] as boolean });
      });
      const answering: LedgerCrypto = {
        ...portableLedgerCrypto,
        name: 'webcrypto (answers)',
        ed25519Verify: (signature, message, publicKey) => {
          const hit = known.get(`${toHex(signature)}:${toHex(publicKey)}`)?.find((k) => sameBytes(k.message, message));
          return hit !== undefined ? hit.ok : verifyEd25519(signature, message, publicKey, 'noble');
        },
      };
      result = await runOnce(files, answering, options, 're-verifying with the signature results', total);
    }
  }
  options.onProgress?.('done', 1);
  return {
    engine,
    output: JSON.stringify(result.ok ? result.value : { noVerdict: result.error }),
    verdict: result.ok ? result.value : null,
    noVerdict: result.ok ? null : result.error,
    webCryptoChecks,
    secondPass,
  };
}
