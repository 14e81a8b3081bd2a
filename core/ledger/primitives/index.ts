/**
 * core/ledger/primitives: bytes and hex, SHA-256 and Ed25519 behind the crypto port (the one piece of module state in
 * core, ADR 0185), and RFC 8785 canonical text with its strict record reader: what every ledger record is made of.
 */
export { sha256Hex, toHex, fromHex, isHex } from './bytes.js';
export { installLedgerCrypto, type LedgerCrypto } from './crypto-port.js';
export {
  keyIdOf,
  keyPairFromSeed,
  generateKeyPair,
  verifyEd25519,
  signerFromKeyPair,
  isAcceptablePublicKey,
  type Ed25519KeyPair,
  type Signer,
  ed25519FromSpki,
} from './signature.js';
