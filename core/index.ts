/**
 * Docket's pure core API: no I/O, no clock, no randomness, no environment, no AWS SDK. Each area publishes its names
 * through its own index file; this file only gathers them.
 *   - carrier: the strict JSON reader (Core §2.1), exact numbers, decimal strings, RFC 6901 pointers
 *   - pack: validatePack (§§3.1–3.3, §4.1) and the ValidatedPack it yields
 *   - evaluate: compilePack, evaluateCompiled, evaluateDocuments, canonicalDisposition (§§7–8, §10)
 *   - ledger: entry format, signing, Merkle tree and checkpoints, the append protocol over an abstract store
 */
export * from './result.js';
export * from './carrier/index.js';
export * from './pack/index.js';
export * from './evaluate/index.js';
export * from './ledger/index.js';
