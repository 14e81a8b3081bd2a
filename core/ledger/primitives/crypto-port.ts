/**
 * The ledger's crypto port (docs/adr/0185-ledger-crypto-port.md): the hash and Ed25519 primitives core/ledger uses,
 * injected so that the verification path runs unchanged in Node and in a browser, with no node:* import.
 *
 * The default is portable JavaScript (@noble/hashes, and signature.ts's strict @noble/ed25519 path), which gives
 * the same bytes and the same verdicts everywhere. Node programs install the node:crypto implementation
 * (adapters/node-ledger-crypto.ts) at start for speed; a browser page may install one backed by WebCrypto.
 * Installing a port changes speed, never a result: every port must pass the same tests (test/ledger/crypto-port.test.ts).
 */
import { sha256 as nobleSha256, sha512 as nobleSha512 } from '@noble/hashes/sha2.js';

export interface LedgerCrypto {
  /** A name for diagnostics ("portable", "node", "webcrypto"). */
  readonly name: string;
  /** Synchronous, and keeps no reference to `data` after returning (callers reuse input buffers: merkle.ts). */
  sha256(data: Uint8Array): Uint8Array;
  /** SHA-256 as 64 lowercase hex digits; a string is hashed as its UTF-8 bytes. */
  sha256Hex(data: Uint8Array | string): string;
  sha512(data: Uint8Array): Uint8Array;
  /**
   * Cofactorless Ed25519 verification (RFC 8032 §5.1.7) of a signature that already passed signature.ts's strict
   * pre-checks. Absent: signature.ts's own @noble/ed25519 equation is used.
   */
  readonly ed25519Verify?: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean;
  /** RFC 8032 §5.1.6 signing (deterministic). Absent: @noble/ed25519's. */
  readonly ed25519Sign?: (message: Uint8Array, secretKey: Uint8Array) => Uint8Array;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const utf8 = new TextEncoder();

/** Lowercase hex without Buffer (a table lookup per byte). */
export function hexOf(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i] as number] as string;
  return s;
}

/** Pure JavaScript: runs anywhere, the reference every other port is compared with. */
export const portableLedgerCrypto: LedgerCrypto = {
  name: 'portable',
  sha256: (data) => nobleSha256(data),
  sha256Hex: (data) => hexOf(nobleSha256(typeof data === 'string' ? utf8.encode(data) : data)),
  sha512: (data) => nobleSha512(data),
};

let active: LedgerCrypto = portableLedgerCrypto;

/** Installs the port every later ledger call uses (once, at program start; tests may swap and restore it). */
export function installLedgerCrypto(port: LedgerCrypto): LedgerCrypto {
  const previous = active;
  active = port;
  return previous;
}

export const ledgerCrypto = (): LedgerCrypto => active;
