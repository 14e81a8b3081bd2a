/**
 * The evaluate function's pipeline over the in-memory ledger, for tests of what follows a recorded entry: the example
 * packs in a registry, one writer and `process`, the batch handler's per-record step as the function runs it (each
 * record written to its FIFO group's log, the first log when it names none), and `owed`: what the delivery stage owes
 * for a recorded entry — its handoffs and notification, computed from the entry alone by the fan-out the deliver
 * function runs (core/pipeline/fan-out.ts).
 */
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import type { BatchRecord } from '../../core/pipeline/batch.js';
import { messagesOwed, type OwedMessages } from '../../core/pipeline/fan-out.js';
import { ledgerWriter, recordedFromStored } from '../../core/pipeline/ledger-writer.js';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';
import type { PackSource, RecordedEntry } from '../../core/pipeline/ports.js';
import { processRequest } from '../../core/pipeline/process-request.js';
import type { LedgerStore } from '../../core/ledger/store/store.js';
import { TRIAGE, VENDOR, hex } from './example-requests-fixture.js';
import { testPipelineConfig, TEST_ROUTES } from './pipeline-config-fixture.js';

export function memoryPipeline(o: { readonly logIds?: string[] } = {}) {
  const packs = new Map([VENDOR, TRIAGE].map((t) => [hex(t), new TextEncoder().encode(t)]));
  const store = new MemoryLedgerStore();
  const config = testPipelineConfig(o.logIds ?? ['d-0']);
  const writer = ledgerWriter({
    store,
    signer: signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(9))),
    logIds: config.logIds,
    now: () => '2026-12-04T17:00:00Z',
  });
  const packSource = cachedPackSource({
    getPack: async (d: string) => packs.get(d) ?? null,
    resolveAlias: async () => null,
  });
  const process = (bytes: Uint8Array, record: BatchRecord) =>
    processRequest(bytes, config, {
      packs: packSource,
      archive: { put: async () => undefined },
      ledger: writer.forLog(record.groupId ?? config.logIds[0]!),
    });
  return { store, config, routes: TEST_ROUTES, writer, packSource, process };
}

/** The messages a recorded entry owes, computed from the entry by the deliver function's fan-out. */
export const owed = (recorded: RecordedEntry, packs: PackSource): Promise<OwedMessages> =>
  messagesOwed(recorded, TEST_ROUTES, packs);

/** The entry a log holds at `seq`, read back strictly. */
export async function recordedAt(store: LedgerStore, logId: string, seq: number): Promise<RecordedEntry> {
  for await (const e of store.readEntries(logId, seq, seq)) if (e.seq === seq) return recordedFromStored(e);
  throw new Error(`no entry at ${logId}/${seq}`);
}
