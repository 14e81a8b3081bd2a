/**
 * The evaluate function's pipeline over the in-memory ledger, for tests of what follows a recorded entry: the example
 * packs in a registry, one writer and `process`, the batch handler's per-record step as the function runs it.
 */
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import type { BatchRecord } from '../../core/pipeline/batch.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import type { RecordSinks } from '../../core/pipeline/outbox.js';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';
import { processRequest } from '../../core/pipeline/process-request.js';
import { TRIAGE, VENDOR, hex } from './example-requests-fixture.js';
import { testPipelineConfig } from './pipeline-config-fixture.js';

export function memoryPipeline(o: { readonly logIds?: string[]; readonly positionsByStage?: boolean } = {}) {
  const packs = new Map([VENDOR, TRIAGE].map((t) => [hex(t), new TextEncoder().encode(t)]));
  const store = new MemoryLedgerStore();
  const config = testPipelineConfig(o.logIds ?? ['d-0']);
  const writer = ledgerWriter({
    store,
    signer: signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(9))),
    logIds: config.logIds,
    now: () => '2026-12-04T17:00:00Z',
    ...(o.positionsByStage === true ? { positionsByStage: true } : {}),
  });
  const packSource = cachedPackSource({
    getPack: async (d: string) => packs.get(d) ?? null,
    resolveAlias: async () => null,
  });
  const process = (bytes: Uint8Array, _record: BatchRecord, sinks: RecordSinks | undefined) =>
    processRequest(bytes, config, {
      packs: packSource,
      archive: { put: async () => undefined },
      ledger: writer,
      ...sinks!,
    });
  return { store, config, writer, packSource, process };
}
