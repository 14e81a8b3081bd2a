/**
 * The pipeline's LedgerWriter over the append protocol (core/ledger/write/append.ts; docs/ledger-write-path.md): the
 * pipeline decides the entry's content, the protocol its slot, and the builder checks and signs it. A record is
 * written through `forLog(group)`, to its FIFO group's log only (ADR 0270); no position is written for a new entry —
 * the delivery stage writes it (ADR 0404), so the FIFO lock is held only for what the append needs.
 */
import {
  appendOnce,
  claimRequest,
  slotCommits,
  type AppendError,
  type ClaimSight,
  type HeadCache,
  type OwnSlots,
  type HeadReads,
  type WrittenSeqs,
} from '../ledger/write/append.js';
import { buildEntry, parseStoredEntry, type BuiltEntry } from '../ledger/entries/entry.js';
import { entryFormatFor, type UnsignedEntry } from '../ledger/entries/entry-types.js';
import type { Signer } from '../ledger/primitives/signature.js';
import type { LedgerStore, StoredEntry } from '../ledger/store/store.js';
import type { AppendOptions, AppendResult, ClaimTicket, EntryDraft, LedgerWriter, RecordedEntry } from './ports.js';

export interface LedgerWriterOptions {
  readonly store: LedgerStore;
  readonly signer: Signer;
  readonly logIds: readonly string[];
  /** RFC 3339 UTC time of the entry (the handler's clock). */
  readonly now: () => string;
  /** Waits before lost-slot retry number `attempt` (ADR 0272); the edge jitters it. Absent: retry at once. */
  readonly backoff?: (attempt: number) => Promise<void>;
}

/** The pipeline's writer: bound to one log per record (ADR 0270). */
export interface SequencedLedgerWriter {
  /**
   * The writer for records of message group `groupId`: appends go to that log only. A group that is not a
   * configured log is refused at append time (`not-a-log-group`); a request whose claim names another log is
   * refused (`claim-in-other-log`, carrying that log) and never written from here.
   */
  forLog(groupId: string): LedgerWriter;
  /**
   * Forgets the cached heads, so the next append to each log reads its head once and checks it against the seqs
   * this writer created (head regression, ADR 0271). The edge calls it at the start of every batch: one head read
   * per log per batch.
   */
  forgetHeads(): void;
}

export type LedgerWriteErrorCode = AppendError['code'] | 'not-a-log-group';

/**
 * A record the writer refused to write, typed by a stable code: the record fails (and is redelivered) unless the
 * edge handles the code (claim-in-other-log is forwarded to `logId`'s group). Carries no key material.
 */
export class LedgerWriteError extends Error {
  override readonly name = 'LedgerWriteError';
  constructor(
    readonly code: LedgerWriteErrorCode,
    message: string,
    /** The log concerned: the claim's log (claim-in-other-log), the regressed log, or the refused group. */
    readonly logId: string,
    readonly requestId: string,
    readonly detail: { readonly headSeq?: number; readonly writtenSeq?: number } = {},
  ) {
    super(`${code}: ${message}`);
  }
}

/** A stored entry that does not read back strictly: the ledger is damaged; never repaired here. */
export class StoredEntryError extends Error {
  readonly code = 'stored-entry-unreadable';
}

/** A stored entry as the pipeline delivers from it, read strictly; an unreadable body throws StoredEntryError. */
export function recordedFromStored(stored: StoredEntry): RecordedEntry {
  const parsed = parseStoredEntry(stored.body);
  if (!parsed.ok)
    throw new StoredEntryError(`entry ${stored.logId}/${stored.seq} is ${parsed.error.code}: ${parsed.error.detail}`);
  return {
    logId: stored.logId,
    seq: stored.seq,
    entryHash: parsed.value.entryHash,
    entry: parsed.value.entry,
    body: stored.body,
  };
}

/**
 * What a writer keeps of a claim ticket it issued (docs/adr/0402-claim-before-evaluation.md): the request and log it
 * is for, the claim in flight and the request's announced arrival at its log's group commit, held until the append
 * joins or the ticket is released.
 */
interface Issued {
  readonly requestId: string;
  readonly requestDigest: string;
  readonly logId: string;
  readonly claimed: Promise<ClaimSight>;
  readonly arrival: () => void;
}

export function ledgerWriter(o: LedgerWriterOptions): SequencedLedgerWriter {
  const issued = new WeakMap<ClaimTicket, Issued>();
  const logs = [...new Set(o.logIds)].sort();
  const headCache: HeadCache = new Map();
  const ownSlots: OwnSlots = new Map();
  const writtenSeqs: WrittenSeqs = new Map();
  const headReads: HeadReads = new Map();
  const commits = slotCommits();
  // Lost-slot tries before the record fails (and is redelivered): 12 with a backoff, else the protocol's default.
  const maxAttempts = o.backoff !== undefined ? 12 : undefined;
  return {
    forLog(groupId: string): LedgerWriter {
      return {
        append(draft: EntryDraft, options?: AppendOptions): Promise<AppendResult> {
          // The message group is the log (ADR 0270): a group naming no configured log is never written.
          if (!logs.includes(groupId))
            return Promise.reject(
              new LedgerWriteError(
                'not-a-log-group',
                `message group ${JSON.stringify(groupId)} is not a configured log`,
                groupId,
                draft.requestId,
              ),
            );
          return appendNow(draft, groupId, options);
        },
        reserve(requestId: string, requestDigest: string): ClaimTicket {
          return reserve(requestId, requestDigest, groupId);
        },
      };
    },
    forgetHeads(): void {
      headCache.clear();
    },
  };
  /** Step (a) of a request bound to `logId`, started now; its arrival is announced as `appendNow` would. */
  function reserve(requestId: string, requestDigest: string, logId: string): ClaimTicket {
    // A group naming no configured log claims nothing: its append is refused (not-a-log-group).
    if (!logs.includes(logId)) return { requestId, requestDigest, release: () => undefined };
    const arrival = commits.expect(logId);
    const claimed = claimRequest(o.store, {
      requestId,
      requestDigest,
      logId,
      headCache,
      writtenSeqs,
      headReads,
    });
    // Awaited by the append; a ticket released instead must not leave an unhandled rejection behind.
    claimed.catch(() => undefined);
    const ticket: ClaimTicket = { requestId, requestDigest, release: arrival };
    issued.set(ticket, { requestId, requestDigest, logId, claimed, arrival });
    return ticket;
  }
  async function appendNow(
    draft: EntryDraft,
    logId: string,
    options: AppendOptions | undefined,
  ): Promise<AppendResult> {
    const ticket = options?.ticket;
    const held = ticket === undefined ? undefined : issued.get(ticket);
    if (
      ticket !== undefined &&
      (held?.logId !== logId || held.requestId !== draft.requestId || held.requestDigest !== draft.requestDigest)
    )
      throw new RangeError('a claim ticket serves only the writer, log and request it was issued for');
    // Bound to one log, this append can only ever join that log's groups: announce it (unless its ticket already
    // did), so the slot writes of the batch's records go together once they have all claimed (ADR 0350). Released
    // however the append ends; the arrival counts once, so the ticket's release after it is harmless.
    const arrival = held?.arrival ?? commits.expect(logId);
    try {
      return await appendTo(draft, logId, arrival, options?.retained, held?.claimed);
    } finally {
      arrival();
    }
  }
  async function appendTo(
    draft: EntryDraft,
    logId: string,
    arrival: () => void,
    retained: Promise<unknown> | undefined,
    claimed: Promise<ClaimSight> | undefined,
  ): Promise<AppendResult> {
    const time = o.now();
    let built: BuiltEntry | undefined;
    const out = await appendOnce(o.store, {
      requestId: draft.requestId,
      requestDigest: draft.requestDigest,
      logId,
      headCache,
      ownSlots,
      writtenSeqs,
      headReads,
      ...(o.backoff !== undefined ? { backoff: o.backoff } : {}),
      ...(maxAttempts !== undefined ? { maxAttempts } : {}),
      slotCommits: commits,
      slotArrival: arrival,
      ...(retained !== undefined ? { beforeSlot: retained } : {}),
      ...(claimed !== undefined ? { claimed } : {}),
      build: (slot) =>
        (built = buildEntry(
          {
            ...draft,
            // Version 1 unless the draft records draft features (ADR 0220); a graph run is version 3 (ADR 0360).
            format: entryFormatFor(draft.draftFeatures, draft.kind),
            ...slot,
            time,
            keyId: o.signer.keyId,
          } as UnsignedEntry,
          o.signer,
        )),
    });
    if (!out.ok) {
      const e = out.error;
      if (e.code === 'request-id-conflict') return { status: 'conflict', existingRequestDigest: e.claim.requestDigest };
      if (e.code === 'claim-in-other-log')
        throw new LedgerWriteError(e.code, e.message, e.claim.logId, draft.requestId);
      if (e.code === 'head-regressed')
        throw new LedgerWriteError(e.code, e.message, e.logId, draft.requestId, {
          headSeq: e.headSeq,
          writtenSeq: e.writtenSeq,
        });
      throw new LedgerWriteError(e.code, e.message, logId, draft.requestId);
    }
    const stored = out.value.entry;
    if (out.value.status === 'appended' && built !== undefined && stored.body === built.body) {
      // Our own entry, just written: buildEntry validated it (entry-rules, the same member and value rules a strict
      // read applies) and the stored bytes are exactly its canonical text, so reading them back would only repeat
      // that work. Entries written by anyone else (duplicates, earlier deliveries) are still read back strictly.
      return { status: 'appended', recorded: { logId: stored.logId, seq: stored.seq, ...built } };
    }
    return { status: out.value.status === 'appended' ? 'appended' : 'existing', recorded: recordedFromStored(stored) };
  }
}
