/** Benchmarks measure the ledger as Node programs run it: on node:crypto (docs/adr/0185-ledger-crypto-port.md). */
import { useNodeLedgerCrypto } from '../../adapters/node-ledger-crypto.js';

useNodeLedgerCrypto();
