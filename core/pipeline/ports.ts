/**
 * What the pipeline needs from the world, as interfaces. core/pipeline stays pure (no AWS SDK, no clock, no env):
 * the handler wires these to adapters (DynamoDB, SQS) and tests wire them to in-memory fakes or the local stack.
 */
import type { PackLoad } from '../admission/index.js';
import type { SignedEntry, UnsignedEntry } from '../ledger/entry-types.js';
import type { ResultMessage } from './result-notification.js';

export type { LoadedPack, PackLoad } from '../admission/index.js';

export interface PackSource {
  load(digestHex: string): Promise<PackLoad>;
  /** `id@version` → digest hex, or null. */
  resolveAlias(alias: string): Promise<string | null>;
}

export interface RequestArchive {
  /** Retain the exact request bytes, content-addressed (idempotent). */
  put(bytes: Uint8Array): Promise<unknown>;
}

/** The members of an entry the pipeline decides; the ledger fills format, log, seq, prevHash, time and keyId. */
export type EntryDraft = DistributiveOmit<UnsignedEntry, 'format' | 'logId' | 'seq' | 'prevHash' | 'time' | 'keyId'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface RecordedEntry {
  readonly logId: string;
  readonly seq: number;
  /** Entry hash as the ledger names it (hex). */
  readonly entryHash: string;
  readonly entry: SignedEntry;
  /** The entry's exact stored bytes (a handoff message carries them, so consumers can check the signature). */
  readonly body: string;
}

export type AppendResult =
  | { readonly status: 'appended' | 'existing'; readonly recorded: RecordedEntry }
  /** The request id is already claimed by other request bytes: the new request cannot be recorded under it. */
  | { readonly status: 'conflict'; readonly existingRequestDigest: string };

export interface LedgerWriter {
  /** Appends exactly once per request id (the ledger's append protocol selects the log); a duplicate returns the existing entry. */
  append(draft: EntryDraft): Promise<AppendResult>;
}

export interface HandoffSender {
  /** Sends one message; throws when it could not be sent (the record is then retried, never dropped). */
  send(queue: string, handoffId: string, body: string, routeKey: string): Promise<void>;
}

export interface ResultPublisher {
  /**
   * Publishes one result notification (docs/adr/0171-result-publish-retried-with-the-handoffs.md); throws when it
   * could not be published (the record is then retried with its handoffs, never dropped).
   */
  publish(message: ResultMessage): Promise<void>;
}
