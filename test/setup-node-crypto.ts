/** Tests run the ledger as Node programs do, on node:crypto; test/ledger/crypto-port.test.ts covers the other ports. */
import { useNodeLedgerCrypto } from '../adapters/node-ledger-crypto.js';

useNodeLedgerCrypto();
