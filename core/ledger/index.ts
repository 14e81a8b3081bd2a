/**
 * core/ledger: the audit ledger's formats and protocols (docs/ledger-format.md), one package per concept
 * (docs/adr/0390-core-ledger-split-into-packages.md). This facade re-exports each package's index, lowest first; code
 * outside core may import it or one package's index.ts. Pure: hashing and signing through the injected crypto port, no
 * clock, no randomness, no I/O beyond the store ports adapters implement.
 */
export * from './primitives/index.js';
export * from './store/index.js';
export * from './notes/index.js';
export * from './entries/index.js';
export * from './trust-policy/index.js';
export * from './checkpoints/index.js';
export * from './export/index.js';
export * from './witness/index.js';
export * from './verify/index.js';
export * from './receipts/index.js';
export * from './write/index.js';
