/**
 * Benchmarks measure the ledger as the CLI runs it: node:crypto, with libsodium's Ed25519 verification when
 * sodium-native loads (docs/adr/0185-ledger-crypto-port.md, docs/adr/0240-libsodium-ed25519-verify.md).
 */
import { useFastestLedgerCrypto } from '../../adapters/sodium-ledger-crypto.js';

useFastestLedgerCrypto();
