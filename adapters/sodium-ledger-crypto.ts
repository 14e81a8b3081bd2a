/**
 * The ledger crypto port with libsodium's Ed25519 verification (docs/adr/0240-libsodium-ed25519-verify.md): node:crypto
 * for hashing and signing (adapters/node-ledger-crypto.ts), `crypto_sign_verify_detached` from the `sodium-native`
 * addon for verification, about 1.7× faster than OpenSSL's on the same machine — the checkpoint writer and
 * `verify --all-signatures` spend most of their time there.
 *
 * libsodium (≥ 1.0.18, without ED25519_COMPAT) verifies cofactorlessly and strictly: S < L, A canonical and not of
 * small order, R not of small order, then the encoding of [S]B − [k]A compared with R. core/ledger/primitives/signature.ts runs
 * Docket's own strict pre-checks first, as for every port, so a verdict can never differ from node:crypto's;
 * test/ledger/sodium-ed25519.test.ts proves it over the edge-case corpus and thousands of random signatures.
 *
 * The addon is loaded at run time and checked against RFC 8032 §7.1 before use; when it is absent (a platform
 * without a prebuild, a bundle that leaves it out, as the Lambda functions do) or fails that check, Node programs
 * stay on node:crypto: slower, never different.
 */
import { createRequire } from 'node:module';
import { installLedgerCrypto, type LedgerCrypto } from '../core/ledger/index.js';
import { nodeLedgerCrypto } from './node-ledger-crypto.js';

/** The one sodium-native function used (sodium-native ships no type declarations). */
interface SodiumVerify {
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

// RFC 8032 §7.1 TEST 2: the load-time check that the addon verifies what it should, and refuses a changed message.
const SELF_TEST = {
  publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
  message: '72',
  signature:
    '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
};
const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));

/** libsodium's detached Ed25519 verification, or null when sodium-native cannot be loaded or fails its check. */
export function loadSodiumEd25519Verify(): LedgerCrypto['ed25519Verify'] | null {
  let sodium: SodiumVerify;
  try {
    sodium = createRequire(import.meta.url)('sodium-native') as SodiumVerify;
  } catch {
    return null;
  }
  const verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean =>
    sodium.crypto_sign_verify_detached(signature, message, publicKey);
  try {
    const sig = bytes(SELF_TEST.signature);
    const pub = bytes(SELF_TEST.publicKey);
    if (!verify(sig, bytes(SELF_TEST.message), pub) || verify(sig, bytes('73'), pub)) return null;
  } catch {
    return null;
  }
  return verify;
}

let cached: LedgerCrypto | null | undefined;

/** node:crypto with libsodium's Ed25519 verification, or null when sodium-native is not usable here. */
export function sodiumLedgerCrypto(): LedgerCrypto | null {
  if (cached === undefined) {
    const verify = loadSodiumEd25519Verify();
    cached = verify === null ? null : { ...nodeLedgerCrypto, name: 'node+libsodium', ed25519Verify: verify };
  }
  return cached;
}

/**
 * Installs the fastest ledger port this process can load: node:crypto with libsodium's verification when
 * sodium-native loads, node:crypto alone otherwise. Returns the port it replaced.
 */
export const useFastestLedgerCrypto = (): LedgerCrypto => installLedgerCrypto(sodiumLedgerCrypto() ?? nodeLedgerCrypto);
