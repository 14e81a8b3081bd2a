/**
 * What the pipeline needs from the world, as interfaces. core/pipeline stays pure (no AWS SDK, no clock, no env):
 * the handler wires these to adapters (DynamoDB, SQS) and tests wire them to in-memory fakes or the local stack.
 */
import type { PackRegistry } from '../admission/index.js';
import type { BuiltEntry } from '../ledger/entries/entry.js';
import type { UnsignedEntry } from '../ledger/entries/entry-types.js';
import type { ResultMessage } from './result-notification.js';

/**
 * The pack registry as the pipeline reads it: `id@version` → digest hex, digest → loaded pack, or an item the
 * registry holds but cannot serve (`registry-integrity`, recorded as a refusal: ADR 0485).
 */
export type PackSource = PackRegistry<PackReadFailure>;

/**
 * Why the pipeline's registry could not serve an item it holds (ADR 0485): the store's integrity check refused it. A
 * store fault (throttling, the network) is not this: it is thrown and retried.
 */
export type PackReadFailure = 'registry-integrity';

/** Why the pipeline's graph registry could not serve a graph it holds (ADR 0456): as for a pack. */
export type GraphReadFailure = PackReadFailure;

export interface RequestArchive {
  /** Retain the exact request bytes, content-addressed (idempotent). */
  put(bytes: Uint8Array): Promise<unknown>;
}

/** The members of an entry the pipeline decides; the ledger fills format, log, seq, prevHash, time and keyId. */
export type EntryDraft = DistributiveOmit<UnsignedEntry, 'format' | 'logId' | 'seq' | 'prevHash' | 'time' | 'keyId'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An entry at its place in its log, with its exact stored bytes (a handoff message carries them). */
export interface RecordedEntry extends BuiltEntry {
  readonly logId: string;
  readonly seq: number;
}

export type AppendResult =
  | { readonly status: 'appended' | 'existing'; readonly recorded: RecordedEntry }
  /** The request id is already claimed by other request bytes: the new request cannot be recorded under it. */
  | { readonly status: 'conflict'; readonly existingRequestDigest: string };

export interface LedgerWriter {
  /** Appends exactly once per request id (the ledger's append protocol selects the log); a duplicate returns the existing entry. */
  append(draft: EntryDraft, options?: AppendOptions): Promise<AppendResult>;
  /**
   * Starts the request's claim (the append protocol's first step) before its entry's content is decided, so the
   * claim's round trips overlap the evaluation (docs/adr/0402-claim-before-evaluation.md). The ticket goes to
   * `append` in its options, or is released if the request will not be appended.
   */
  reserve(requestId: string, requestDigest: string): ClaimTicket;
}

/** A claim started by `LedgerWriter.reserve`: only the writer that issued it can use it. */
export interface ClaimTicket {
  readonly requestId: string;
  readonly requestDigest: string;
  /** Gives the ticket up (the request failed before its append); idempotent, harmless after `append` used it. */
  release(): void;
}

export interface AppendOptions {
  /**
   * Settles when the request's bytes are retained (the request archive's put): the writer may claim meanwhile but
   * writes no slot before it has resolved, and fails the append if it rejects — every entry stays replayable
   * (docs/replay.md) while the archive put and the claim share one round trip (ADR 0350).
   */
  readonly retained?: Promise<unknown>;
  /** The claim `reserve` started for this request (same id and digest as the draft). */
  readonly ticket?: ClaimTicket;
}

/** One handoff message as the outbox delivers it (fan-out.ts `OwedHandoff` adds where it goes). */
export interface OutboxHandoff {
  readonly handoffId: string;
  readonly body: string;
  readonly routeKey: string;
}

/**
 * What a batch delivery answers, per entry: the positions (into the list it was given) that were not delivered, and
 * why. Everything else was delivered. Throwing instead means nothing is known to be delivered.
 */
export interface BatchDeliveryReport {
  readonly failed: readonly { readonly index: number; readonly reason: string }[];
}

export interface HandoffBatchSender {
  /** Sends handoffs to one queue in as few calls as the queue's batch limits allow (docs/adr/0253-per-invocation-outbox.md). */
  sendBatch(queue: string, handoffs: readonly OutboxHandoff[]): Promise<BatchDeliveryReport>;
}

export interface ResultBatchPublisher {
  /** Publishes notifications in as few calls as the topic's batch limits allow (docs/adr/0253-per-invocation-outbox.md). */
  publishBatch(messages: readonly ResultMessage[]): Promise<BatchDeliveryReport>;
}
