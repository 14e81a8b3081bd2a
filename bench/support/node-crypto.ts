/**
 * Benchmarks measure the ledger as the CLI runs it: node:crypto, with libsodium's Ed25519 verification when
 * sodium-native loads (docs/adr/0185-ledger-crypto-port.md, docs/adr/0240-libsodium-ed25519-verify.md).
 * BENCH_CRYPTO=node measures node:crypto alone instead: what the Lambda functions run (ADR 0240).
 */
import { useNodeLedgerCrypto } from '../../adapters/node-ledger-crypto.js';
import { useFastestLedgerCrypto } from '../../adapters/sodium-ledger-crypto.js';

if (process.env.BENCH_CRYPTO === 'node') useNodeLedgerCrypto();
else useFastestLedgerCrypto();
