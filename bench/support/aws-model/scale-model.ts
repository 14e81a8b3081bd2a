/**
 * The AWS scale model (docs/adr/0280-aws-scale-model.md): the deployed handlers' own runtimes — the sequence
 * function's (functions/lib/sequence-runtime.ts `createSequenceRuntime`: packLedgerMessages, sequenceMessage, the SQS
 * adapter's batch send), the evaluate function's (functions/lib/evaluate-runtime.ts `createEvaluateRuntime`:
 * ledgerQueueRecords, handleBatch, processRequest, the ledger writer and the append protocol) and the deliver
 * function's (functions/lib/deliver-runtime.ts `createDeliverRuntime`: deliverJob) — run by simulated Lambda instances
 * over modelled AWS clients: the in-memory ledger store behind every DynamoDB call and simulated queues behind every
 * SQS call (modelled-sqs-client.ts for the sequence function's sends), each costing a latency drawn from its API's
 * distribution on a virtual clock, metered per partition key and, with `throttle`, limited per key as DynamoDB limits
 * it.
 *
 * The design modelled is the one docs/architecture.md's request path describes (ADR 0497: a ledger message carries an
 * intake batch's requests; ADR 0402, ADR 0350, ADR 0400: claims once read, slot writes group-committed as bundle
 * items), the delivery stage's consumers in delivery-consumer.ts.
 *
 * Each simulated instance is one Lambda execution environment: its own runtime (ledger writer, head cache, own slots,
 * pack cache), SDK retry quota and one CPU; it receives a batch (≤ 10 messages), is invoked with it as an SQS event,
 * and deletes what the runtime did not report failed. A failed message stays in flight until the visibility timeout
 * returns it. Figures per batch count requests (`recordsPerBatch`), not messages (`messagesPerBatch`). The same-run
 * baseline is `bareWrites`.
 */
import { createHash } from 'node:crypto';
import { REQUEST_FORMAT } from '../../../core/admission/request-format.js';
import { keyPairFromSeed, signerFromKeyPair, type Signer } from '../../../core/ledger/primitives/signature.js';
import { storeCheckpoints, storeSource, verifyLedger } from '../../../core/ledger/verify/index.js';
import { checkpointLog } from '../../../core/ledger/write/checkpoint-writer.js';
import { backoffDelayMs } from '../../../core/ledger/write/append.js';
import type { DeliveryJobSender } from '../../../core/pipeline/batch.js';
import { deliveryJobBytes } from '../../../core/pipeline/delivery-job.js';
import type { RouteQueueConfig } from '../../../core/pipeline/handoff-plan.js';
import { ledgerWriter, type SequencedLedgerWriter } from '../../../core/pipeline/ledger-writer.js';
import { cachedPackSource } from '../../../core/pipeline/pack-source.js';
import type { PipelineConfig } from '../../../core/pipeline/process-request.js';
import type { OutboxPorts } from '../../../core/pipeline/outbox.js';
import type { ResultMessage } from '../../../core/pipeline/result-notification.js';
import { createEvaluateRuntime, type EvaluateRuntime } from '../../../functions/lib/evaluate-runtime.js';
import { ledgerQueueRecords } from '../../../functions/lib/ledger-queue-records.js';
import { createSequenceRuntime } from '../../../functions/lib/sequence-runtime.js';
import { readPolicy } from '../generated-ledger.js';
import { prng } from '../seeded-prng.js';
import { TRIAGE_EVIDENCE, triageFacts } from '../triage-facts.js';
import { CapacityMeter } from './capacity-meter.js';
import { DeliveryTally, type DeliveredOnceVerdict } from './delivered-once.js';
import { consumeDeliveryJobs, noDeliveryCounts, type DeliveryCounts } from './delivery-consumer.js';
import { itemSize, readUnits, writeUnits } from './dynamodb-capacity.js';
import { pricedRequests } from './cost-model.js';
import { profileLatency, type CallLatency, type LatencyProfile, type QueueKind } from './latency-profile.js';
import {
  dynamoCall,
  entryItem,
  LEDGER_TABLE,
  LedgerTable,
  ModelledLedgerStore,
  type CallSite,
  type MessagingService,
} from './modelled-ledger-store.js';
import { DocketConfigError, validateConfig, type DocketConfig } from '../../../infra/config.js';
import { modelledSqsClient } from './modelled-sqs-client.js';
import { RetryQuota, ThrottlingError } from './sdk-retry.js';
import { SimQueue, sqsEvent, type QueuedMessage } from './sqs-queue.js';
import { VirtualClock } from './virtual-clock.js';
import type { StoredEntry } from '../../../core/ledger/store/store.js';

/**
 * The one design modelled: the shipped one (the figures name it, as the recorded figures of retired ones do theirs):
 * one writer per log, a ledger message carrying the requests of one intake batch.
 */
export const DESIGN = 'one-writer-per-log, packed ledger messages';

export interface ScaleOptions {
  /**
   * The deployment modelled: the configuration object `cdk deploy` takes (infra/config.ts `resolveConfig`), refused
   * as synthesis refuses it (docs/adr/0471-scale-model-runs-deployable-configurations.md).
   */
  readonly deployment: DocketConfig;
  readonly appends: number;
  /** Enforce DynamoDB's per-key limits (throttles retried by the SDK's standard strategy). */
  readonly throttle: boolean;
  /** Every call's latency distribution (latency-profile.ts). */
  readonly profile: LatencyProfile;
  /** Evaluate-function CPU per record outside the slot lock (decode, admission, evaluation, entry build), ms. */
  readonly cpuMsPerRecord: number;
  /** CPU per entry signature (inside the slot lock: one per slot attempt), ms. */
  readonly signMs: number;
  readonly seed: number;
}

/** What the model runs of a deployment: its instances, logs, batches and timeouts, as infra deploys them. */
export interface DeployedShape {
  /** Evaluate function instances: the FIFO event source's maximumConcurrency. */
  readonly instances: number;
  readonly logs: number;
  readonly batchSize: number;
  /** Sequence function instances (sequencerMaximumConcurrency). */
  readonly sequencers: number;
  /** Deliver function instances (deliverMaximumConcurrency). */
  readonly deliveryInstances: number;
  /** Intake, ledger and delivery queue visibility timeout: visibilityTimeoutFactor × functionTimeoutSeconds. */
  readonly visibilityTimeoutSeconds: number;
}

/** The shape of a deployable configuration; throws the configuration's own DocketConfigError for any other. */
export function deployedShape(c: DocketConfig): DeployedShape {
  const problems = validateConfig(c);
  if (problems.length > 0) throw new DocketConfigError(problems);
  return {
    instances: c.maximumConcurrency,
    logs: c.logCount,
    batchSize: c.batchSize,
    sequencers: c.sequencerMaximumConcurrency,
    deliveryInstances: c.deliverMaximumConcurrency,
    visibilityTimeoutSeconds: c.functionTimeoutSeconds * c.visibilityTimeoutFactor,
  };
}

/** How requests reach the intake: all at once (a backlog: the sustained rate) or a Poisson stream at a rate. */
export type Arrivals = { readonly kind: 'backlog' } | { readonly kind: 'poisson'; readonly perSecond: number };

/** Where each batch of the ledger consumers spent its time, mean ms per batch. */
export interface BatchBreakdown {
  readonly batches: number;
  /** Requests per batch: what its ledger messages carry (the batch fill). */
  readonly recordsPerBatch: number;
  /** Ledger messages per batch (≤ the batch size). */
  readonly messagesPerBatch: number;
  /** Message groups (logs) per batch: a FIFO receive fills up from more groups when the oldest has fewer than ten. */
  readonly groupsPerBatch: number;
  /** Messages taken (the group was free) → handler starts: poll + invoke (latency-profile.ts `fifoToHandler`). */
  readonly receiveToInvokeMs: number;
  /** Handler start → first slot write sent: CPU, head read, request archive puts, claims. */
  readonly beforeSlotsMs: number;
  /** Handler start → the batch's last head read answered. */
  readonly headReadMs: number;
  /** Last head read answered → first slot write sent: the slowest claim and archive put (and the records' CPU). */
  readonly claimsMs: number;
  /** First slot write sent → last slot write answered (the serial part under the slot lock or group commit). */
  readonly slotWritesMs: number;
  /** Slot write calls (entry and bundle puts) per batch. */
  readonly slotCallsPerBatch: number;
  /** Last slot write answered → handler returns: the delivery jobs' send. */
  readonly afterSlotsMs: number;
  /** Handler returns → delete applied (the group unlocks). */
  readonly deleteMs: number;
  /** Delete applied → next batch taken from a group this batch held (an instance already polling takes it at once). */
  readonly unlockToNextTakeMs: number;
  /** Handler start → handler returns: the evaluate function's time under the FIFO lock, mean ms per batch. */
  readonly evaluateUnderLockMs: number;
}

export interface RunFigures {
  readonly design: typeof DESIGN;
  readonly arrivals: Arrivals;
  readonly appends: number;
  /** Requests recorded per second: appends / (last entry durable − first request sent). */
  readonly appendsPerSecond: number;
  /** Per-request latency: sent to the intake → its entry's slot write applied at the table (durable). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /**
   * Per-request latency a requester sees: sent to the intake → its result notification's first publish applied at
   * the topic (over the requests that had one: `notified`).
   */
  readonly notifiedP50Ms: number;
  readonly notifiedP99Ms: number;
  readonly notified: number;
  readonly ledgerWcuPerEntry: number;
  readonly ledgerRcuPerEntry: number;
  /** Request archive writes per entry (the other table every evaluation writes). */
  readonly archiveWcuPerEntry: number;
  readonly hottestKey: string;
  readonly hottestKeyWcuPerSecond: number;
  readonly hottestReadKey: string;
  readonly hottestKeyRcuPerSecond: number;
  readonly throttled: number;
  readonly redelivered: number;
  readonly lostSlots: number;
  /** SQS and SNS calls the functions made per request (requesters' own sends not included). */
  readonly messagingCallsPerRequest: number;
  /** The functions' SQS and SNS calls over the run, by service (requesters' own sends not included). */
  readonly messagingCalls: Readonly<Record<MessagingService, number>>;
  /** Those calls as priced: each 64 KB chunk of a call's payload one request. */
  readonly messagingRequests: Readonly<Record<MessagingService, number>>;
  /** Lambda invocations and their summed duration (invoked → returned), per function; new environments started. */
  readonly lambda: LambdaUse;
  /** Units per entry of every table an evaluation reads or writes. */
  readonly unitsPerEntry: {
    readonly wcu: Readonly<Record<string, number>>;
    readonly rcu: Readonly<Record<string, number>>;
  };
  /** Each table's busiest whole second, WCU and RCU (the table quota's measure). */
  readonly tablePeaks: readonly TablePeak[];
  readonly chainValid: boolean;
  readonly oneEntryPerRequest: boolean;
  readonly verifyFindings: readonly string[];
  /**
   * Every stored entry's handoffs and notification were applied at their queues and topic, each id once but for
   * requests really redelivered (delivered-once.ts).
   */
  readonly deliveredOnce: boolean;
  readonly deliveries: DeliveredOnceVerdict;
  /** The delivery stage's counts. */
  readonly delivery: DeliveryCounts & { readonly sqsCallsPerEntry: number };
  /**
   * Bytes of the entry items: as stored (the adapter's encoder, the body compressed: ADR 0355) and as they would be
   * with the body as a plain String (the layout before), for the same entries.
   */
  readonly entryItemBytes: { readonly stored: ByteRange; readonly plain: ByteRange };
  readonly breakdown: BatchBreakdown;
  readonly virtualSeconds: number;
  /** The run's entries as bare conditional PutItems: the same-run baseline. */
  readonly bareWrites: BareWrites;
}

/**
 * A write the baseline owes: sent again when the SDK's retries give up on a throttle, as a writer that must write every
 * entry would (hundreds of writers on one log's key, taking the entries log by log, can exhaust three attempts).
 */
async function owed<T>(write: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await write();
    } catch (e) {
      if (!(e instanceof ThrottlingError)) throw e;
    }
  }
}

/** The baseline: the run's entry items, each one bare conditional PutItem, instances × batch size at once. */
export interface BareWrites {
  readonly writes: number;
  /** At once: instances × batch size. */
  readonly concurrency: number;
  readonly writesPerSecond: number;
  /** Per write: sent → answered (throttle retries included). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly wcuPerWrite: number;
  readonly throttled: number;
  readonly virtualSeconds: number;
}

export interface LambdaUse {
  readonly invocations: Readonly<Record<FunctionName, number>>;
  readonly invokedMs: Readonly<Record<FunctionName, number>>;
  readonly coldStarts: number;
}
export type FunctionName = 'sequence' | 'evaluate' | 'deliver';

export interface TablePeak {
  readonly table: string;
  readonly wcuPerSecond: number;
  readonly rcuPerSecond: number;
}

/** The tables an evaluation touches, as the model meters them. */
export const TABLES = [LEDGER_TABLE, 'requests', 'packs'] as const;

export interface ByteRange {
  readonly min: number;
  readonly mean: number;
  readonly max: number;
}

/** The mean of `f` over `xs` (0 over none). */
const meanOf = <T>(xs: readonly T[], f: (x: T) => number): number =>
  xs.length === 0 ? 0 : xs.reduce((s, x) => s + f(x), 0) / xs.length;

const rangeOf = (xs: readonly number[]): ByteRange =>
  xs.length === 0
    ? { min: 0, mean: 0, max: 0 }
    : { min: Math.min(...xs), mean: meanOf(xs, (x) => x), max: Math.max(...xs) };

/** The requests of a run: the same bytes for every run of the same seed. */
export interface Workload {
  readonly requestIds: readonly string[];
  readonly bodies: readonly string[];
  readonly packBytes: Uint8Array;
  readonly packDigest: string;
}

export function workload(n: number, packBytes: Uint8Array, seed: number): Workload {
  const packDigest = createHash('sha256').update(packBytes).digest('hex');
  const r = prng(seed);
  const dec = new TextDecoder();
  const requestIds: string[] = [];
  const bodies: string[] = [];
  for (let i = 0; i < n; i++) {
    const requestId = `scale-${seed}-${i}`;
    const facts = dec.decode(triageFacts(r));
    const evidence = dec.decode(TRIAGE_EVIDENCE[i % TRIAGE_EVIDENCE.length]!);
    requestIds.push(requestId);
    bodies.push(
      `{"format":"${REQUEST_FORMAT}","requestId":"${requestId}","pack":"sha256:${packDigest}","facts":${facts},"evidence":${evidence}}`,
    );
  }
  return { requestIds, bodies, packBytes, packDigest };
}

/**
 * The share of a record's CPU spent reading it (its SHA-256 and the strict read of its envelope) before the archive
 * put and the claim leave; the rest is spent deciding and building the entry. An assumption, not a measurement: a
 * triage request is ~0.5 KB to hash and read, against evaluation, entry build, signature and compression (~220 µs a
 * record in process, bench/handler.bench.ts); a larger share only delays the claims, so it errs against ADR 0402.
 */
const READ_SHARE = 0.1;

const BUILD_DIGEST = 'b'.repeat(64);
const ENTRY_KEYS = keyPairFromSeed(new Uint8Array(32).fill(3));
const CHECKPOINT_KEYS = keyPairFromSeed(new Uint8Array(32).fill(4));
const ORIGIN = { environment: 'scale-model', table: 'docket-ledger' };
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The deliver function's route queues. */
const ROUTES: RouteQueueConfig = {
  routeQueues: { 'queue:Intake Desk': 'q1', 'human-role:Oversight': 'q2', 'human-role:Data Steward': 'q3' },
  unroutedQueue: 'q0',
};

/** The test trust policy of the run: the model's entry key signs every log from seq 0. */
function trustPolicy(logIds: readonly string[]) {
  const from0 = logIds.map((logId) => ({ logId, fromSeq: 0, toSeq: null }));
  return readPolicy(
    JSON.stringify({
      format: 'docket.trust-policy/2',
      logs: logIds,
      keys: [
        { keyId: ENTRY_KEYS.keyId, publicKey: hex(ENTRY_KEYS.publicKey), role: 'entries', validity: from0 },
        {
          keyId: CHECKPOINT_KEYS.keyId,
          publicKey: hex(CHECKPOINT_KEYS.publicKey),
          role: 'checkpoints',
          validity: from0,
        },
      ],
      authorities: [ORIGIN],
      evaluatorBuilds: [BUILD_DIGEST],
    }),
  );
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface BatchTimes {
  taken: number;
  invoked: number;
  headReadAnswered?: number;
  firstSlotSent?: number;
  lastSlotAnswered?: number;
  returned: number;
  deleted: number;
  groups: readonly string[];
  /** Requests, and the messages that carried them. */
  records: number;
  messages: number;
  slotCalls: number;
}

/** One simulated Lambda execution environment of the evaluate function. */
class Instance {
  private cpuFreeAt = 0;
  private signedAt = 0;
  /** When the CPU reading the latest record is done: its archive put and claim leave after it (ADR 0402). */
  private readAt = 0;
  readonly site: CallSite;
  current: BatchTimes | undefined;
  private readonly runtime: EvaluateRuntime;

  constructor(world: World, index: number) {
    const { clock, meter, o } = world;
    const rand = prng(o.seed * 7919 + index);
    // A call leaves once the CPU spent just before it is done: the signature before a slot write, the read of the
    // request before its archive put and claim (the only CPU between a record's awaits and those calls); a record's
    // evaluation CPU is waited for where it is spent (`ledger` below).
    const cpuDone = (): Promise<void> => {
      const until = Math.max(this.signedAt, this.readAt);
      return until > clock.now ? clock.until(until) : Promise.resolve();
    };
    this.site = {
      ...world.site(rand),
      cpuDone,
      onSlotWrite: (sent, answered) => {
        const b = this.current;
        if (b === undefined) return;
        b.slotCalls += 1;
        b.firstSlotSent ??= sent;
        b.lastSlotAnswered = Math.max(b.lastSlotAnswered ?? 0, answered);
      },
      onHeadRead: (_sent, answered) => {
        const b = this.current;
        if (b !== undefined) b.headReadAnswered = Math.max(b.headReadAnswered ?? 0, answered);
      },
    };
    const inner = signerFromKeyPair(ENTRY_KEYS);
    // Signing is synchronous inside buildEntry: its CPU is queued and paid before the instance's next call.
    const signer: Signer = { keyId: inner.keyId, sign: (m) => ((this.signedAt = this.spend(o.signMs)), inner.sign(m)) };
    const config = world.config;
    // As functions/lib/evaluate-runtime.ts builds it, the lost-slot backoff's sleep on the virtual clock.
    const writer = ledgerWriter({
      store: new ModelledLedgerStore(world.table, this.site),
      signer,
      logIds: config.logIds,
      now: () => new Date(Date.UTC(2026, 11, 4, 6) + Math.floor(clock.now)).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      backoff: (attempt) => clock.sleep(backoffDelayMs(attempt, rand())),
    });
    // The rest of a record's CPU — admission, evaluation, the entry's build — is spent before its append.
    const ledger: SequencedLedgerWriter = {
      forgetHeads: () => writer.forgetHeads(),
      forLog: (group) => {
        const w = writer.forLog(group);
        return {
          append: async (draft, options) => {
            await clock.until(this.spend(o.cpuMsPerRecord * (1 - READ_SHARE)));
            return w.append(draft, options);
          },
          reserve: w.reserve.bind(w),
        };
      },
    };
    const archive = {
      // processRequest calls it first, once the request is read: that read's CPU is queued here.
      put: (bytes: Uint8Array) => {
        this.readAt = this.spend(o.cpuMsPerRecord * READ_SHARE);
        return dynamoCall(this.site, 'write', async (now, moved) => {
          const digest = createHash('sha256').update(bytes).digest('hex');
          const item = { pk: `request#${digest}`, sk: 'request', bytes, size: bytes.byteLength };
          const size = itemSize(item);
          moved(size);
          const old = world.archiveSizes.get(digest);
          if (!meter.charge('requests', item.pk, 'wcu', writeUnits(Math.max(size, old ?? 0)), now))
            throw new ThrottlingError(`${item.pk} throttled`);
          world.archiveSizes.set(digest, size);
          return { digest, created: old === undefined };
        });
      },
    };
    // The delivery jobs: one SendMessageBatch per ten, under the lock, each body the job's own bytes.
    const jobs: DeliveryJobSender = {
      send: (list) =>
        inCallsOfTen(world, 'sqs-standard', list, (ten) => {
          world.delivery.sqsCalls += 1;
          for (const job of ten) {
            const bytes = deliveryJobBytes(job);
            if (!bytes.ok) throw new Error(`scale model: ${bytes.error.message}`);
            world.deliveryQueue.send(bytes.value);
            world.delivery.jobsSent += 1;
          }
        }),
    };
    this.runtime = createEvaluateRuntime({
      config,
      ports: { packs: modelledPacks(world, this.site), archive },
      ledger,
      jobs,
      deadLetter: async () => {
        await sqsRoundTrip(world, 'sqs-standard', () => undefined); // the dead-letter send
        world.deadLettered += 1;
      },
    });
  }

  /** Queues `ms` of work on the instance's one CPU (work runs in the order it was queued); returns when it ends. */
  private spend(ms: number): number {
    this.cpuFreeAt = Math.max(this.cpuFreeAt, this.site.clock.now) + ms;
    return this.cpuFreeAt;
  }

  /**
   * Polls `queue` forever: take a batch as soon as a group is free (the event source's pollers long-poll), be invoked
   * with it (poll + invoke: the profile's FIFO → handler time, a cold start first), handle it, delete what succeeded.
   */
  async consume(world: World, queue: SimQueue): Promise<never> {
    const { clock } = world;
    const pickUp = pickUpOf(world, 'fifo');
    for (;;) {
      const messages = await queue.receive(world.shape.batchSize);
      // Counted once answered, as the delivery consumer counts its receives.
      world.messaged('sqs-fifo', payloadBytes(messages));
      const taken = clock.now;
      await clock.sleep(pickUp());
      const event = sqsEvent(messages);
      // The requests the runtime will handle, opened as it opens them (functions/lib/ledger-queue-records.ts).
      const requests = ledgerQueueRecords(event.Records);
      const times: BatchTimes = {
        taken,
        invoked: clock.now,
        returned: 0,
        deleted: 0,
        groups: [...new Set(messages.map((m) => m.group ?? ''))],
        records: requests.length,
        messages: messages.length,
        slotCalls: 0,
      };
      this.current = times;
      for (const r of requests) if ((r.receiveCount ?? 1) > 1) world.tally.redeliveredRequest(requestIdOf(r.body));
      const byId = new Map(messages.map((m) => [m.messageId, m]));
      const answer = await this.runtime.handle(event);
      times.returned = clock.now;
      world.invoked('evaluate', times.returned - times.invoked);
      this.current = undefined;
      for (const f of answer.batchItemFailures) byId.delete(f.itemIdentifier);
      world.failedRecords += answer.batchItemFailures.length;
      await sqsRoundTrip(world, 'sqs-fifo', async () => {
        queue.delete([...byId.values()]);
        times.deleted = clock.now;
        world.onDeleted(times);
      });
    }
  }
}

/**
 * An event source mapping's time from a batch taken to the handler running with it: the profile's queue → handler
 * draw, and before an instance's first invocation a cold start (each simulated instance is a new environment).
 */
function pickUpOf(world: World, queue: QueueKind): () => number {
  let warm = false;
  return () => {
    const cold = warm ? 0 : world.latency.coldStart();
    if (!warm) world.coldStarts += 1;
    warm = true;
    return cold + world.latency.toHandler(queue);
  };
}

/** The bytes SQS counts for received messages: their bodies (the model's messages carry no attributes). */
const payloadBytes = (messages: readonly QueuedMessage[]): number =>
  messages.reduce((n, m) => n + Buffer.byteLength(m.body, 'utf8'), 0);

/** A function's SQS or SNS call, counted and priced: half a latency there, the service's answer, half a latency back. */
async function sqsRoundTrip<T>(
  world: World,
  service: MessagingService,
  serve: () => Promise<T> | T,
  payload = 0,
): Promise<T> {
  world.messaged(service, payload);
  const l = service === 'sns' ? world.latency.sns() : world.latency.sqs();
  await world.clock.sleep(l / 2);
  const out = await serve();
  await world.clock.sleep(l / 2);
  return out;
}

/** Batch calls of ≤ 10 of `items` each, one after another (adapters/sqs.ts, adapters/sns.ts), each applying its ten. */
async function inCallsOfTen<T>(
  world: World,
  service: MessagingService,
  items: readonly T[],
  apply: (ten: readonly T[]) => void,
): Promise<{ failed: [] }> {
  for (let i = 0; i < items.length; i += 10) await sqsRoundTrip(world, service, () => apply(items.slice(i, i + 10)));
  return { failed: [] };
}

/**
 * The outbox's batch ports as a function sends them (inCallsOfTen); each handoff and notification is tallied as the
 * service applies it, and a notification's first publish is when its requester is notified.
 */
function sendingPorts(world: World): OutboxPorts {
  const { clock } = world;
  return {
    handoffs: {
      sendBatch: (_queue, handoffs) =>
        inCallsOfTen(world, 'sqs-standard', handoffs, (ten) => {
          for (const h of ten) world.tally.applied(h.handoffId);
        }),
    },
    results: {
      publishBatch: (messages: readonly ResultMessage[]) =>
        inCallsOfTen(world, 'sns', messages, (ten) => {
          for (const m of ten) {
            world.tally.applied(m.id);
            const id = m.attributes.requestId; // the filter attribute: the model's request ids are short and plain
            if (id !== undefined && !world.notifiedAt.has(id)) world.notifiedAt.set(id, clock.now);
          }
        }),
    },
  };
}

/** A function's pack source: its own cache, a miss one strongly consistent GetItem of the packs table from `site`. */
function modelledPacks(world: World, site: CallSite) {
  return cachedPackSource({
    getPack: (digest) =>
      dynamoCall(site, 'read', async (now, moved) => {
        const found = digest === world.work.packDigest ? world.work.packBytes : null;
        const size = found === null ? 0 : itemSize({ pk: `pack#${digest}`, sk: 'pack', bytes: found });
        if (!world.meter.charge('packs', `pack#${digest}`, 'rcu', readUnits(size), now))
          throw new ThrottlingError(`pack#${digest} throttled`);
        moved(size);
        return found;
      }),
    resolveAlias: async () => null,
  });
}

/** The request id of a request body (the model's bodies are all readable requests). */
const requestIdOf = (body: string): string => (JSON.parse(body) as { requestId: string }).requestId;

/** One delivery-stage consumer instance: its own SDK clients (retry quota), pack cache and store. */
function startDeliveryConsumer(world: World, index: number): void {
  const { clock } = world;
  const site = world.site(prng(world.o.seed * 104_729 + index));
  void consumeDeliveryJobs({
    clock,
    queue: world.deliveryQueue,
    batchSize: world.shape.batchSize,
    sqs: (serve) => sqsRoundTrip(world, 'sqs-standard', serve),
    received: () => world.messaged('sqs-standard'),
    pickUpMs: pickUpOf(world, 'standard'),
    store: new ModelledLedgerStore(world.table, site),
    packs: modelledPacks(world, site),
    outbox: sendingPorts(world),
    config: ROUTES,
    counts: world.delivery,
    redelivered: (requestId) => world.tally.redeliveredRequest(requestId),
  });
}

class World {
  readonly clock = new VirtualClock();
  readonly meter: CapacityMeter;
  readonly table = new LedgerTable();
  readonly archiveSizes = new Map<string, number>();
  readonly config: PipelineConfig;
  readonly shape: DeployedShape;
  readonly latency: CallLatency;
  readonly sentAt = new Map<string, number>();
  /** Request id → virtual time its result notification was first published (the publish applied at the topic). */
  readonly notifiedAt = new Map<string, number>();
  /** The delivery stage's standard queue of jobs. */
  readonly deliveryQueue: SimQueue;
  readonly delivery: DeliveryCounts = noDeliveryCounts();
  readonly tally = new DeliveryTally();
  deadLettered = 0;
  failedRecords = 0;
  /** SQS and SNS calls by the functions (receives, deletes, sends, publishes; the requesters' sends not included). */
  readonly messagingCalls: Record<MessagingService, number> = { 'sqs-standard': 0, 'sqs-fifo': 0, sns: 0 };
  /** The same calls as priced: each started 64 KB of a call's payload one request. */
  readonly messagingRequests: Record<MessagingService, number> = { 'sqs-standard': 0, 'sqs-fifo': 0, sns: 0 };
  readonly invocations: Record<FunctionName, number> = { sequence: 0, evaluate: 0, deliver: 0 };
  readonly invokedMs: Record<FunctionName, number> = { sequence: 0, evaluate: 0, deliver: 0 };
  coldStarts = 0;
  readonly batches: BatchTimes[] = [];
  /** Group → virtual time its last batch was deleted (waiting for the next take). */
  private readonly unlockedAt = new Map<string, number>();
  readonly unlockGaps: number[] = [];

  constructor(
    readonly work: Workload,
    readonly o: ScaleOptions,
  ) {
    this.shape = deployedShape(o.deployment);
    this.meter = new CapacityMeter(o.throttle);
    this.config = {
      logIds: Array.from({ length: this.shape.logs }, (_, i) => `scale-${i}`),
      supportedExtensions: [],
      defaultWorkBudget: 100_000,
      maxWorkBudget: 1_000_000,
      evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD_DIGEST },
    };
    this.latency = profileLatency(o.profile, prng(o.seed));
    this.deliveryQueue = new SimQueue(this.clock, 'standard', this.shape.visibilityTimeoutSeconds * 1000);
  }

  site(rand: () => number): CallSite {
    return callSite(this.clock, this.meter, this.latency, rand);
  }

  messaged(service: MessagingService, payloadBytes = 0): void {
    this.messagingCalls[service] += 1;
    this.messagingRequests[service] += pricedRequests(payloadBytes);
  }

  invoked(fn: FunctionName, ms: number): void {
    this.invocations[fn] += 1;
    this.invokedMs[fn] += ms;
  }

  onTaken(messages: readonly QueuedMessage[], at: number): void {
    for (const g of new Set(messages.map((m) => m.group))) {
      if (g === undefined) continue;
      const unlocked = this.unlockedAt.get(g);
      if (unlocked !== undefined) this.unlockGaps.push(at - unlocked);
      this.unlockedAt.delete(g);
    }
  }

  onDeleted(b: BatchTimes): void {
    this.batches.push(b);
    for (const g of b.groups) if (g !== '') this.unlockedAt.set(g, b.deleted);
  }
}

/** A function instance's SDK call site: its own retry quota and jitter draws, no CPU of its own between calls. */
function callSite(clock: VirtualClock, meter: CapacityMeter, latency: CallLatency, rand: () => number): CallSite {
  const retry = { sleep: (ms: number) => clock.sleep(ms), rand, quota: new RetryQuota() };
  return { clock, meter, latency, retry, cpuDone: () => Promise.resolve() };
}

/** The ledger queue's URL in the model (the sequence function's LEDGER_QUEUE_URL). */
const LEDGER_QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/000000000000/scale-model-ledger.fifo';

/**
 * One sequence function instance: the event source's receive of an intake batch (≤ batch size), then the function's
 * own runtime (functions/lib/sequence-runtime.ts) over the modelled SQS client — it packs the batch into ledger
 * messages and sends each under the group its digest selects — then the delete of what it did not report failed.
 */
async function sequence(world: World, intake: SimQueue, ledgerQueue: SimQueue): Promise<never> {
  const runtime = createSequenceRuntime({
    sqs: modelledSqsClient(new Map([[LEDGER_QUEUE_URL, ledgerQueue]]), (service, bytes, serve) =>
      sqsRoundTrip(world, service, serve, bytes),
    ),
    ledgerQueueUrl: LEDGER_QUEUE_URL,
    logIds: world.config.logIds,
  });
  const pickUp = pickUpOf(world, 'standard');
  for (;;) {
    const messages = await intake.receive(world.shape.batchSize);
    world.messaged('sqs-standard', payloadBytes(messages));
    await world.clock.sleep(pickUp());
    const invoked = world.clock.now;
    for (const m of messages) if (m.receiveCount > 1) world.tally.redeliveredRequest(requestIdOf(m.body));
    const answer = await runtime.handle(sqsEvent(messages));
    world.invoked('sequence', world.clock.now - invoked);
    const failed = new Set(answer.batchItemFailures.map((f) => f.itemIdentifier));
    await sqsRoundTrip(world, 'sqs-standard', () => intake.delete(messages.filter((m) => !failed.has(m.messageId))));
  }
}

/** The highest Poisson rate a bisection found whose run kept p99 (to durable) within a target. */
export interface RateAtP99 {
  readonly targetMs: number;
  /** The highest rate tried whose run met the target; 0 when none did. */
  readonly requestsPerSecond: number;
  /** That run's p99 (undefined when no rate met the target). */
  readonly p99Ms: number | undefined;
  /** The lowest rate tried whose run missed the target (the bisection's upper end). */
  readonly missedAtRequestsPerSecond: number;
  readonly steps: number;
}

/**
 * Bisects the Poisson arrival rate between 0 and `ceiling` (the sustained rate, which no rate reaches with a
 * bounded p99) for `steps` runs: a run meeting the target raises the lower end, one missing it lowers the upper. p99
 * is not strictly monotone in the rate (it varies by a few ms with the draws), so the answer is a rate that met the
 * target in its run with the next rate tried above it missing, to within ceiling / 2^steps.
 */
export async function rateAtP99(
  work: Workload,
  o: ScaleOptions,
  targetMs: number,
  ceiling: number,
  steps = 7,
): Promise<RateAtP99> {
  if (!(targetMs > 0) || !(ceiling > 0) || !Number.isSafeInteger(steps) || steps < 1)
    throw new RangeError('rateAtP99 needs a target and a ceiling above 0 and at least one step');
  let low = 0;
  let high = ceiling;
  let p99Ms: number | undefined;
  for (let i = 0; i < steps; i++) {
    const rate = (low + high) / 2;
    const run = await simulate(work, o, { kind: 'poisson', perSecond: rate });
    if (run.p99Ms <= targetMs) [low, p99Ms] = [rate, run.p99Ms];
    else high = rate;
  }
  return { targetMs, requestsPerSecond: low, p99Ms, missedAtRequestsPerSecond: high, steps };
}

/** Runs the workload and returns its figures; throws if the model stalls. */
export async function simulate(work: Workload, o: ScaleOptions, arrivals: Arrivals): Promise<RunFigures> {
  if (work.requestIds.length !== o.appends) throw new RangeError('the workload must hold exactly `appends` requests');
  const world = new World(work, o);
  const { clock, shape } = world;
  const visibilityMs = shape.visibilityTimeoutSeconds * 1000;
  const intake = new SimQueue(clock, 'standard', visibilityMs);
  const ledgerQueue = new SimQueue(clock, 'fifo', visibilityMs);
  const receive = ledgerQueue.receive.bind(ledgerQueue);
  ledgerQueue.receive = async (max) => {
    const got = await receive(max);
    world.onTaken(got, clock.now);
    return got;
  };
  for (let i = 0; i < shape.instances; i++) void new Instance(world, i).consume(world, ledgerQueue);
  for (let i = 0; i < shape.deliveryInstances; i++) startDeliveryConsumer(world, i);
  for (let i = 0; i < shape.sequencers; i++) void sequence(world, intake, ledgerQueue);

  const send = (i: number): void => {
    world.sentAt.set(work.requestIds[i]!, clock.now);
    intake.send(work.bodies[i]!);
  };
  if (arrivals.kind === 'backlog') for (let i = 0; i < o.appends; i++) send(i);
  else {
    const r = prng(o.seed + 17);
    void (async () => {
      for (let i = 0; i < o.appends; i++) {
        send(i);
        await clock.sleep((-Math.log(1 - r()) * 1000) / arrivals.perSecond);
      }
    })();
  }
  await clock.run();

  const durable = world.table.durableAt;
  if (durable.size !== o.appends)
    throw new Error(`the model stalled: ${durable.size} of ${o.appends} requests recorded`);
  const latencies = work.requestIds.map((id) => durable.get(id)! - world.sentAt.get(id)!).sort((a, b) => a - b);
  const toNotified = work.requestIds
    .flatMap((id) => {
      const at = world.notifiedAt.get(id);
      return at === undefined ? [] : [at - world.sentAt.get(id)!];
    })
    .sort((a, b) => a - b);
  const end = Math.max(...durable.values());
  // The project's own checks: the checkpoint writer verifies every entry's signature and the chain of each log
  // before it signs (core/ledger/write/checkpoint-writer.ts), then verify judges the whole ledger against those
  // checkpoints and the position markers (core/ledger/verify), duplicate requests included.
  const policy = trustPolicy(world.config.logIds);
  const store = world.table.store;
  const findings: string[] = [];
  for (const logId of world.config.logIds) {
    const w = await checkpointLog(store, logId, {
      signer: signerFromKeyPair(CHECKPOINT_KEYS),
      policy,
      origin: ORIGIN,
      time: '2026-12-04T07:00:00Z',
    });
    if (w.status === 'refused') findings.push(...w.findings.map((f) => f.code));
  }
  const verdict = await verifyLedger(storeSource(store), policy, await storeCheckpoints(store, world.config.logIds), {
    positions: store.markers().positions,
  });
  findings.push(...(verdict.ok ? verdict.value.findings.map((f) => f.code) : [verdict.error.code]));
  const counts = new Map<string, number>();
  let entries = 0;
  const stored: number[] = [];
  const plain: number[] = [];
  for (const logId of world.config.logIds)
    for (const e of world.table.store.snapshot(logId)) {
      entries += 1;
      const item = entryItem(e);
      stored.push(itemSize(item));
      const { bodyz: _compressed, ...rest } = item;
      plain.push(itemSize({ ...rest, body: e.body }));
      counts.set(e.projection.requestId, (counts.get(e.projection.requestId) ?? 0) + 1);
    }
  const deliveries = await world.tally.verdict(
    store,
    world.config.logIds,
    ROUTES,
    cachedPackSource({ getPack: async () => work.packBytes, resolveAlias: async () => null }),
  );
  const hotW = world.meter.hottest(LEDGER_TABLE, 'wcu', 0, end);
  const hotR = world.meter.hottest(LEDGER_TABLE, 'rcu', 0, end);
  return {
    design: DESIGN,
    arrivals,
    appends: o.appends,
    appendsPerSecond: (o.appends * 1000) / end,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    notifiedP50Ms: percentile(toNotified, 50),
    notifiedP99Ms: percentile(toNotified, 99),
    notified: toNotified.length,
    ledgerWcuPerEntry: world.meter.total(LEDGER_TABLE, 'wcu') / o.appends,
    ledgerRcuPerEntry: world.meter.total(LEDGER_TABLE, 'rcu') / o.appends,
    archiveWcuPerEntry: world.meter.total('requests', 'wcu') / o.appends,
    hottestKey: hotW.key,
    hottestKeyWcuPerSecond: hotW.unitsPerSecond,
    hottestReadKey: hotR.key,
    hottestKeyRcuPerSecond: hotR.unitsPerSecond,
    throttled: world.meter.throttled,
    redelivered: intake.redelivered + ledgerQueue.redelivered,
    lostSlots: world.table.lostSlots,
    messagingCallsPerRequest: Object.values(world.messagingCalls).reduce((a, b) => a + b, 0) / o.appends,
    messagingCalls: { ...world.messagingCalls },
    messagingRequests: { ...world.messagingRequests },
    lambda: {
      invocations: { ...world.invocations, deliver: world.delivery.invocations },
      invokedMs: { ...world.invokedMs, deliver: world.delivery.invokedMs },
      coldStarts: world.coldStarts,
    },
    unitsPerEntry: {
      wcu: Object.fromEntries(TABLES.map((t) => [t, world.meter.total(t, 'wcu') / o.appends])),
      rcu: Object.fromEntries(TABLES.map((t) => [t, world.meter.total(t, 'rcu') / o.appends])),
    },
    tablePeaks: TABLES.map((table) => ({
      table,
      wcuPerSecond: world.meter.tablePeak(table, 'wcu', 0, end),
      rcuPerSecond: world.meter.tablePeak(table, 'rcu', 0, end),
    })),
    chainValid: verdict.ok && verdict.value.ok && findings.length === 0,
    oneEntryPerRequest:
      entries === o.appends &&
      work.requestIds.every((id) => counts.get(id) === 1) &&
      !findings.includes('duplicate-request'),
    verifyFindings: [...new Set(findings)],
    deliveredOnce: deliveries.ok && world.delivery.jobsRefused === 0,
    deliveries,
    delivery: { ...world.delivery, sqsCallsPerEntry: world.delivery.sqsCalls / o.appends },
    entryItemBytes: { stored: rangeOf(stored), plain: rangeOf(plain) },
    breakdown: breakdownOf(world),
    virtualSeconds: end / 1000,
    bareWrites: await bareWrites(
      world.config.logIds.flatMap((logId) => store.snapshot(logId)),
      o,
    ),
  };
}

/**
 * The same-run baseline, the floor a pipeline that must write every entry is measured against: `entries` (this run's,
 * in log order) each written as one bare conditional PutItem of its entry item (adapters/ledger-entry-item.ts) to a
 * fresh modelled table — same latency, same per-key limits — by instances × batch size writers at once (the batch's
 * width in messages, as before ledger messages carried several requests, so the ratio compares designs), each sending
 * its next write when the last is answered.
 */
export async function bareWrites(entries: readonly StoredEntry[], o: ScaleOptions): Promise<BareWrites> {
  const clock = new VirtualClock();
  const meter = new CapacityMeter(o.throttle);
  const table = new LedgerTable();
  const shape = deployedShape(o.deployment);
  const latency = profileLatency(o.profile, prng(o.seed));
  const concurrency = shape.instances * shape.batchSize;
  const took: number[] = [];
  let next = 0;
  const writer = async (index: number): Promise<void> => {
    const store = new ModelledLedgerStore(table, callSite(clock, meter, latency, prng(o.seed * 7919 + index)));
    while (next < entries.length) {
      const e = entries[next++]!;
      const sent = clock.now;
      if (!(await owed(() => store.putEntryIfAbsent(e))))
        throw new Error(`bare write of ${e.logId}/${e.seq} found its slot taken`);
      took.push(clock.now - sent);
    }
  };
  const done = Promise.all(Array.from({ length: concurrency }, (_, i) => writer(i)));
  await clock.run();
  await done;
  took.sort((a, b) => a - b);
  const end = Math.max(0, ...table.durableAt.values());
  return {
    writes: entries.length,
    concurrency,
    writesPerSecond: end === 0 ? 0 : (entries.length * 1000) / end,
    p50Ms: percentile(took, 50),
    p99Ms: percentile(took, 99),
    wcuPerWrite: meter.total(LEDGER_TABLE, 'wcu') / Math.max(1, entries.length),
    throttled: meter.throttled,
    virtualSeconds: end / 1000,
  };
}

function breakdownOf(world: World): BatchBreakdown {
  const b = world.batches.filter((x) => x.records > 0);
  const mean = (f: (x: BatchTimes) => number): number => meanOf(b, f);
  const withSlots = b.filter((x) => x.firstSlotSent !== undefined);
  const meanSlots = (f: (x: BatchTimes) => number): number => meanOf(withSlots, f);
  return {
    batches: b.length,
    recordsPerBatch: mean((x) => x.records),
    messagesPerBatch: mean((x) => x.messages),
    groupsPerBatch: mean((x) => x.groups.length),
    receiveToInvokeMs: mean((x) => x.invoked - x.taken),
    beforeSlotsMs: meanSlots((x) => x.firstSlotSent! - x.invoked),
    headReadMs: meanSlots((x) => (x.headReadAnswered ?? x.invoked) - x.invoked),
    claimsMs: meanSlots((x) => x.firstSlotSent! - (x.headReadAnswered ?? x.invoked)),
    slotWritesMs: meanSlots((x) => x.lastSlotAnswered! - x.firstSlotSent!),
    slotCallsPerBatch: meanSlots((x) => x.slotCalls),
    afterSlotsMs: meanSlots((x) => x.returned - x.lastSlotAnswered!),
    deleteMs: mean((x) => x.deleted - x.returned),
    unlockToNextTakeMs: meanOf(world.unlockGaps, (g) => g),
    evaluateUnderLockMs: mean((x) => x.returned - x.invoked),
  };
}
