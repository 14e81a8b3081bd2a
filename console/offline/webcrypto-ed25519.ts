/**
 * Ed25519 through WebCrypto (`crypto.subtle`, algorithm "Ed25519") for the offline page. WebCrypto is asynchronous
 * and the ledger's verification is synchronous, so signatures are verified in batches between verification runs
 * (docs/adr/0186-offline-verification-page.md); signature.ts's strict pre-checks still run first on every call.
 */
import { fromHex, toHex } from '../../core/ledger/primitives/index.js';

/** RFC 8032 §7.1 TEST 1 (empty message): proves the browser's Ed25519 works before it is trusted. */
const TEST_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const TEST_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

export interface SignatureQuery {
  readonly signature: Uint8Array;
  readonly message: Uint8Array;
  readonly publicKey: Uint8Array;
}

const ALG = { name: 'Ed25519' } as const;
// WebCrypto takes ArrayBuffer-backed views; the ledger's bytes always are (never a SharedArrayBuffer).
const buf = (b: Uint8Array): Uint8Array<ArrayBuffer> => b as Uint8Array<ArrayBuffer>;

/** True when this browser verifies RFC 8032's first test vector and refuses it with one bit flipped. */
export async function webCryptoEd25519Works(): Promise<boolean> {
  try {
    const subtle = globalThis.crypto?.subtle;
    if (subtle === undefined) return false;
    const key = await subtle.importKey('raw', buf(fromHex(TEST_PUBLIC)), ALG, false, ['verify']);
    const sig = fromHex(TEST_SIGNATURE);
    const good = await subtle.verify(ALG, key, buf(sig), new Uint8Array(0));
    sig[0] = (sig[0] as number) ^ 1;
    const bad = await subtle.verify(ALG, key, buf(sig), new Uint8Array(0));
    return good && !bad;
  } catch {
    return false;
  }
}

/** Verifies each query with WebCrypto, `batch` at a time; a key WebCrypto refuses to import verifies nothing. */
export async function verifyAll(
  queries: readonly SignatureQuery[],
  onProgress: (done: number) => void,
  batch = 512,
): Promise<boolean[]> {
  const subtle = globalThis.crypto.subtle;
  const keys = new Map<string, Promise<CryptoKey | null>>();
  const keyOf = (pub: Uint8Array): Promise<CryptoKey | null> => {
    const id = toHex(pub);
    let k = keys.get(id);
    if (k === undefined) {
      k = subtle.importKey('raw', buf(pub), ALG, false, ['verify']).catch(() => null);
      keys.set(id, k);
    }
    return k;
  };
  const out: boolean[] = [];
  for (let i = 0; i < queries.length; i += batch) {
    const part = queries.slice(i, i + batch).map(async (q) => {
      const key = await keyOf(q.publicKey);
      if (key === null) return false;
      return subtle.verify(ALG, key, buf(q.signature), buf(q.message)).catch(() => false);
    });
    out.push(...(await Promise.all(part)));
    onProgress(out.length);
  }
  return out;
}
