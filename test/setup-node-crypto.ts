/**
 * Tests run the ledger as the CLI does: node:crypto, with libsodium's Ed25519 verification when sodium-native loads
 * (docs/adr/0240-libsodium-ed25519-verify.md); test/ledger/crypto-port.test.ts and sodium-ed25519.test.ts cover the
 * other ports.
 */
import { useFastestLedgerCrypto } from '../adapters/sodium-ledger-crypto.js';

useFastestLedgerCrypto();
