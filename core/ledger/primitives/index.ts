/**
 * core/ledger/primitives: bytes and hex, SHA-256 and Ed25519 behind the crypto port (the one piece of module state in
 * core, ADR 0185), and RFC 8785 canonical text with its strict record reader: what every ledger record is made of.
 */
export { canonicalText, readCanonicalRecord, LedgerValueError } from './canonical.js';
export { sha256Hex, toHex, fromHex, isHex } from './bytes.js';
export { installLedgerCrypto, ledgerCrypto, portableLedgerCrypto, type LedgerCrypto } from './crypto-port.js';
export {
  keyIdOf,
  keyPairFromSeed,
  generateKeyPair,
  signEd25519,
  verifyEd25519,
  signerFromKeyPair,
  isAcceptablePublicKey,
  passesStrictPrechecks,
  SMALL_ORDER_ENCODINGS,
  ENTRY_SIGNATURE_DOMAIN,
  CHECKPOINT_SIGNATURE_DOMAIN,
  KEY_ID_PATTERN,
  ED25519_L,
  type Ed25519KeyPair,
  type Signer,
  type SignatureBackend,
  ed25519FromSpki,
} from './signature.js';
