/**
 * The AWS scale model (docs/adr/0280-aws-scale-model.md): the project's real batch handler (core/pipeline/batch.ts),
 * request processing (core/pipeline/process-request.ts), ledger writer (core/pipeline/ledger-writer.ts) and append
 * protocol (core/ledger/write/append.ts), run by simulated Lambda instances against the in-memory ledger store, with every
 * DynamoDB and SQS call costing a lognormal network latency on a virtual clock, metered per partition key and, with
 * `throttle`, limited per key as DynamoDB limits it.
 *
 * Four designs, run on the same requests:
 *   many-writers        — the protocol before ADR 0270: the intake (SQS standard) feeds every evaluate instance; each
 *                         offers a new request the logs in turn from its own offset (logsInTurn), so many
 *                         instances write each log and race for its next slot.
 *   one-writer-per-log  — the sequencing as shipped (ADR 0270): a thin sequence function forwards each intake message
 *                         verbatim to an SQS FIFO ledger queue whose MessageGroupId is the request's log
 *                         (`ledgerGroupOf`: core/pipeline/sequencing.ts's decision); FIFO's one-batch-in-flight-per-
 *                         group gives each log one writer at a time, and the evaluate function does what
 *                         functions/lib/evaluate-runtime.ts does: a FIFO batch (`ordered`), the head of each log read
 *                         once per batch (`forgetHeads`, concurrent first reads sharing one call), each record written
 *                         only to its group's log (`forLog`), and each log's slot writes are group-committed: the
 *                         records waiting for a log's slot step go in one conditional PutItem of a bundle item
 *                         (ADR 0350, ADR 0400); each record's archive put and claim leave once it is read, before
 *                         its evaluation's CPU (ADR 0402). With the delivery stage: under the lock the batch only
 *                         appends (the writer's `positionsByStage`: no position for a new entry) and then sends one
 *                         delivery job per log (handleBatch's `jobs`, one SendMessageBatch per ten jobs) before the
 *                         delete; consumers of the standard job queue (delivery-consumer.ts, `deliveryInstances` of
 *                         them) run the real deliverJob: read the entries back, write their positions, send the
 *                         handoffs, then the notifications.
 *   one-writer-per-log-inline-delivery — the previous shipped protocol: the same, with the positions, handoffs and
 *                         notifications sent by the evaluate function under the lock, before the delete (the
 *                         per-invocation outbox, ADR 0253); kept as the same-run baseline of the delivery stage.
 *   one-writer-per-log-serial — the inline protocol with the slot writes of a log one at a time under the writer's
 *                         lock (ADR 0162): the protocol of ADR 0274, kept as the same-run baseline of the group commit.
 *
 * Each simulated instance is one Lambda execution environment: its own ledger writer (head cache, slot lock, own
 * slots), pack cache, SDK retry quota and one CPU; it receives a batch (≤ 10), is invoked, runs handleBatch, and
 * deletes what succeeded. A failed record stays in flight until the visibility timeout returns it.
 */
import { createHash } from 'node:crypto';
import { REQUEST_FORMAT } from '../../../core/admission/request-format.js';
import { logsInTurn } from '../../../core/ledger/write/log-selection.js';
import { sequenceMessage } from '../../../core/pipeline/sequencing.js';
import { keyPairFromSeed, signerFromKeyPair, type Signer } from '../../../core/ledger/primitives/signature.js';
import { readTrustPolicy } from '../../../core/ledger/trust-policy/trust-policy.js';
import { storeCheckpoints, storeSource, verifyLedger } from '../../../core/ledger/verify/index.js';
import { checkpointLog } from '../../../core/ledger/write/checkpoint-writer.js';
import { handleBatch, type BatchRecord, type DeliveryJobSender } from '../../../core/pipeline/batch.js';
import { deliveryJobBytes } from '../../../core/pipeline/delivery-job.js';
import { ledgerWriter } from '../../../core/pipeline/ledger-writer.js';
import { cachedPackSource } from '../../../core/pipeline/pack-source.js';
import { processRequest, type PipelineConfig } from '../../../core/pipeline/process-request.js';
import type { OutboxPorts } from '../../../core/pipeline/outbox.js';
import type { ResultMessage } from '../../../core/pipeline/result-notification.js';
import type { LedgerWriter } from '../../../core/pipeline/ports.js';
import { prng } from '../seeded-prng.js';
import { TRIAGE_EVIDENCE, triageFacts } from '../triage-facts.js';
import { CapacityMeter } from './capacity-meter.js';
import { DeliveryTally, type DeliveredOnceVerdict } from './delivered-once.js';
import { consumeDeliveryJobs, noDeliveryCounts, type DeliveryCounts } from './delivery-consumer.js';
import { itemSize, writeUnits } from './dynamodb-capacity.js';
import { lognormalLatency, type LatencyShape } from './latency.js';
import {
  dynamoCall,
  entryItem,
  LEDGER_TABLE,
  LedgerTable,
  ModelledLedgerStore,
  type CallSite,
} from './modelled-ledger-store.js';
import { RetryQuota, ThrottlingError } from './sdk-retry.js';
import { SimQueue, type QueuedMessage } from './sqs-queue.js';
import { VirtualClock } from './virtual-clock.js';

export type Design =
  'many-writers' | 'one-writer-per-log-serial' | 'one-writer-per-log-inline-delivery' | 'one-writer-per-log';
export const DESIGNS: readonly Design[] = [
  'many-writers',
  'one-writer-per-log-serial',
  'one-writer-per-log-inline-delivery',
  'one-writer-per-log',
];
const sequenced = (d: Design): boolean => d !== 'many-writers';
/** Group commit of each log's slot writes (ADR 0350): the shipped writer and the inline baseline; the others don't. */
const groupCommit = (d: Design): boolean => d === 'one-writer-per-log' || d === 'one-writer-per-log-inline-delivery';
/** Delivery by the delivery stage rather than under the lock: the shipped design only. */
const byStage = (d: Design): boolean => d === 'one-writer-per-log';

export interface ScaleOptions {
  /** Evaluate function instances (the event source's maximumConcurrency). */
  readonly instances: number;
  readonly logs: number;
  readonly appends: number;
  /** Enforce DynamoDB's per-key limits (throttles retried by the SDK's standard strategy). */
  readonly throttle: boolean;
  readonly dynamoLatency: LatencyShape;
  readonly sqsLatency: LatencyShape;
  /** Evaluate-function CPU per record outside the slot lock (decode, admission, evaluation, entry build), ms. */
  readonly cpuMsPerRecord: number;
  /** CPU per entry signature (inside the slot lock: one per slot attempt), ms. */
  readonly signMs: number;
  /** Intake and ledger queue visibility timeout, seconds (infra default: 6 × the 30 s function timeout). */
  readonly visibilityTimeoutSeconds: number;
  /** Sequence function instances (one-writer-per-log only). */
  readonly sequencers: number;
  readonly batchSize: number;
  readonly seed: number;
  /**
   * What-if of the designs that deliver under the lock, not of the delivery stage (refused with it): the work after
   * the slot writes (handoffs, notifications, position writes) costs no time under the FIFO group's lock. An upper
   * bound on what moving it out could give; the position writes are still made and metered, off the lock's path.
   * Default off.
   */
  readonly freeAfterSlots?: boolean;
  /** Delivery-stage consumer instances (its maximumConcurrency); default `instances`, as infra deploys it. */
  readonly deliveryInstances?: number;
}

/** How requests reach the intake: all at once (a backlog: the sustained rate) or a Poisson stream at a rate. */
export type Arrivals = { readonly kind: 'backlog' } | { readonly kind: 'poisson'; readonly perSecond: number };

/** Where each batch of the ledger consumers spent its time, mean ms per batch. */
export interface BatchBreakdown {
  readonly batches: number;
  readonly recordsPerBatch: number;
  /** Message groups (logs) per batch: a FIFO receive fills up from more groups when the oldest has fewer than ten. */
  readonly groupsPerBatch: number;
  /** Receive answered (messages taken) → handler starts: the receive's return trip and the invoke. */
  readonly receiveToInvokeMs: number;
  /** Handler start → first slot write sent: CPU, request archive put, claim. */
  readonly beforeSlotsMs: number;
  /** First slot write sent → last slot write answered (the serial part under the slot lock or group commit). */
  readonly slotWritesMs: number;
  /** Slot write calls (entry and bundle puts) per batch. */
  readonly slotCallsPerBatch: number;
  /** Last slot write answered → handler returns: last position write, outbox (handoffs, notifications). */
  readonly afterSlotsMs: number;
  /** Handler returns → delete applied (the group unlocks). */
  readonly deleteMs: number;
  /** Delete applied → next batch taken from a group this batch held (an instance already polling takes it at once). */
  readonly unlockToNextTakeMs: number;
}

export interface RunFigures {
  readonly design: Design;
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
  readonly chainValid: boolean;
  readonly oneEntryPerRequest: boolean;
  readonly verifyFindings: readonly string[];
  /**
   * Every stored entry's handoffs and notification were applied at their queues and topic, each id once but for
   * requests really redelivered (delivered-once.ts).
   */
  readonly deliveredOnce: boolean;
  readonly deliveries: DeliveredOnceVerdict;
  /** The delivery stage's counts (the shipped design only). */
  readonly delivery?: DeliveryCounts & { readonly sqsCallsPerEntry: number };
  /**
   * Bytes of the entry items: as stored (the adapter's encoder, the body compressed: ADR 0355) and as they would be
   * with the body as a plain String (the layout before), for the same entries.
   */
  readonly entryItemBytes: { readonly stored: ByteRange; readonly plain: ByteRange };
  readonly breakdown?: BatchBreakdown;
  readonly virtualSeconds: number;
}

export interface ByteRange {
  readonly min: number;
  readonly mean: number;
  readonly max: number;
}

const rangeOf = (xs: readonly number[]): ByteRange =>
  xs.length === 0
    ? { min: 0, mean: 0, max: 0 }
    : { min: Math.min(...xs), mean: xs.reduce((a, b) => a + b, 0) / xs.length, max: Math.max(...xs) };

/** The requests of a run: the same bytes for every design. */
export interface Workload {
  readonly requestIds: readonly string[];
  readonly bodies: readonly string[];
  readonly packBytes: Uint8Array;
  readonly packDigest: string;
}

/** The sequencing's "which group": a ledger queue message's MessageGroupId is its request's log. */
export function ledgerGroupOf(body: string, messageId: string, logIds: readonly string[]): string {
  return sequenceMessage(body, messageId, logIds).groupId;
}

export const logIdsFor = (n: number): string[] => Array.from({ length: n }, (_, i) => `scale-${i}`);

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

function pipelineConfig(logIds: readonly string[]): PipelineConfig {
  return {
    logIds,
    supportedExtensions: [],
    defaultWorkBudget: 100_000,
    maxWorkBudget: 1_000_000,
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD_DIGEST },
    routeQueues: { 'queue:Intake Desk': 'q1', 'human-role:Oversight': 'q2', 'human-role:Data Steward': 'q3' },
    unroutedQueue: 'q0',
  };
}

/** The test trust policy of the run: the model's entry key signs every log from seq 0. */
function trustPolicy(logIds: readonly string[]) {
  const from0 = logIds.map((logId) => ({ logId, fromSeq: 0, toSeq: null }));
  const r = readTrustPolicy(
    new TextEncoder().encode(
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
    ),
  );
  if (!r.ok) throw new Error(`scale model trust policy: ${r.error.detail}`);
  return r.value;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface BatchTimes {
  taken: number;
  invoked: number;
  firstSlotSent?: number;
  lastSlotAnswered?: number;
  returned: number;
  deleted: number;
  groups: readonly string[];
  records: number;
  slotCalls: number;
}

/** One simulated Lambda execution environment of the evaluate function. */
class Instance {
  private cpuFreeAt = 0;
  private signedAt = 0;
  readonly site: CallSite;
  readonly sqsSite: CallSite;
  current: BatchTimes | undefined;
  /** Called as each invocation starts. */
  private newBatch: () => void = () => undefined;
  private readonly handle: (records: BatchRecord[]) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

  constructor(world: World, index: number) {
    const { clock, meter, o } = world;
    const quota = new RetryQuota();
    const rand = prng(o.seed * 7919 + index);
    // A call leaves once the signature computed just before it is done (the only CPU between a record's first
    // await and its slot write); a record's own CPU is waited for where it is spent (`process` below).
    const cpuDone = (): Promise<void> => (this.signedAt > clock.now ? clock.until(this.signedAt) : Promise.resolve());
    this.site = {
      clock,
      meter,
      latency: world.dynamoLatency,
      retry: { sleep: (ms) => clock.sleep(ms), rand, quota },
      cpuDone,
      onSlotWrite: (sent, answered) => {
        const b = this.current;
        if (b === undefined) return;
        b.slotCalls += 1;
        b.firstSlotSent ??= sent;
        b.lastSlotAnswered = Math.max(b.lastSlotAnswered ?? 0, answered);
      },
    };
    this.sqsSite = { ...this.site, latency: world.sqsLatency, onMessagingCall: () => (world.messagingCalls += 1) };
    const inner = signerFromKeyPair(ENTRY_KEYS);
    // Signing is synchronous inside buildEntry: its CPU is queued and paid before the instance's next call.
    const signer: Signer = { keyId: inner.keyId, sign: (m) => ((this.signedAt = this.spend(o.signMs)), inner.sign(m)) };
    const config = world.config;
    const store = new ModelledLedgerStore(world.table, this.site);
    const turns = logsInTurn(config.logIds, Math.floor(rand() * 1024));
    const ledger = ledgerWriter({
      store,
      signer,
      logIds: config.logIds,
      now: () => new Date(Date.UTC(2026, 11, 4, 6) + Math.floor(clock.now)).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      chooseLog: turns,
      groupCommit: groupCommit(world.design),
      deferPositions: groupCommit(world.design),
      positionsByStage: byStage(world.design),
    });
    // As functions/lib/evaluate-runtime.ts: under one writer per log, each batch reads each log's head once.
    this.newBatch = () => {
      if (sequenced(world.design)) ledger.forgetHeads();
    };
    const ordered = sequenced(world.design);
    const packs = modelledPacks(world, this.site);
    const archive = {
      put: (bytes: Uint8Array) =>
        dynamoCall(this.site, async (now) => {
          const digest = createHash('sha256').update(bytes).digest('hex');
          const item = { pk: `request#${digest}`, sk: 'request', bytes, size: bytes.byteLength };
          const size = itemSize(item);
          const old = world.archiveSizes.get(digest);
          if (!meter.charge('requests', item.pk, 'wcu', writeUnits(Math.max(size, old ?? 0)), now))
            throw new ThrottlingError(`${item.pk} throttled`);
          world.archiveSizes.set(digest, size);
          return { digest, created: old === undefined };
        }),
    };
    const sendNow = sendingPorts(world, this.sqsSite);
    // The shipped design's jobs: one SendMessageBatch per ten, under the lock, the body the job's own bytes.
    const jobs: DeliveryJobSender = {
      send: async (list) => {
        for (let i = 0; i < list.length; i += 10)
          await sqsRoundTrip(this.sqsSite, () => {
            world.delivery.sqsCalls += 1;
            for (const job of list.slice(i, i + 10)) {
              const bytes = deliveryJobBytes(job);
              if (!bytes.ok) throw new Error(`scale model: ${bytes.error.message}`);
              world.deliveryQueue.send(bytes.value);
              world.delivery.jobsSent += 1;
            }
          });
        return { failed: [] };
      },
    };
    const stage = byStage(world.design);
    this.handle = async (records) => {
      const answer = await handleBatch(records, {
        ordered,
        process: async (bytes, record, sinks) => {
          // A record's CPU as processRequest spends it: reading the request first (then the archive put and the
          // claim leave, ADR 0402), the rest — admission, evaluation, the entry's build — before its append.
          await clock.until(this.spend(o.cpuMsPerRecord * READ_SHARE));
          if (record.receiveCount !== undefined && record.receiveCount > 1)
            world.tally.redeliveredRequest(requestIdOf(record.body));
          const writer = record.groupId !== undefined ? ledger.forLog(record.groupId) : ledger;
          const decided: LedgerWriter = {
            append: async (draft, options) => {
              await clock.until(this.spend(o.cpuMsPerRecord * (1 - READ_SHARE)));
              return writer.append(draft, options);
            },
            ...(writer.reserve !== undefined ? { reserve: writer.reserve.bind(writer) } : {}),
          };
          return processRequest(bytes, config, { packs, archive, ledger: decided, ...sinks! });
        },
        ...(stage ? { jobs } : { outbox: sendNow }),
        deadLetter: async () => {
          await sqsCall(this.sqsSite);
          world.deadLettered += 1;
        },
      });
      // As functions/lib/evaluate-runtime.ts: the deferred position writes (under the stage: a duplicate's only) are
      // durable before the batch is answered.
      if (o.freeAfterSlots === true) void ledger.settlePositions().catch(() => undefined);
      else await ledger.settlePositions();
      return answer;
    };
  }

  /** Queues `ms` of work on the instance's one CPU (work runs in the order it was queued); returns when it ends. */
  private spend(ms: number): number {
    this.cpuFreeAt = Math.max(this.cpuFreeAt, this.site.clock.now) + ms;
    return this.cpuFreeAt;
  }

  /** Polls `queue` forever: receive a batch, be invoked, handle it, delete what succeeded. */
  async consume(world: World, queue: SimQueue): Promise<never> {
    const { clock } = world;
    for (;;) {
      let taken = 0;
      const messages = await sqsRoundTrip(this.sqsSite, async () => {
        const got = await queue.receive(world.o.batchSize);
        taken = clock.now;
        return got;
      });
      await clock.sleep(world.sqsLatency()); // the event source mapping invokes the function
      const times: BatchTimes = {
        taken,
        invoked: clock.now,
        returned: 0,
        deleted: 0,
        groups: [...new Set(messages.map((m) => m.group ?? ''))],
        records: messages.length,
        slotCalls: 0,
      };
      this.current = times;
      this.newBatch();
      const byId = new Map(messages.map((m) => [m.messageId, m]));
      const answer = await this.handle(
        messages.map((m) => ({
          messageId: m.messageId,
          body: m.body,
          receiveCount: m.receiveCount,
          ...(m.group !== undefined ? { groupId: m.group } : {}),
        })),
      );
      times.returned = clock.now;
      this.current = undefined;
      for (const f of answer.batchItemFailures) byId.delete(f.itemIdentifier);
      world.failedRecords += answer.batchItemFailures.length;
      await sqsRoundTrip(this.sqsSite, async () => {
        queue.delete([...byId.values()]);
        times.deleted = clock.now;
        world.onDeleted(times);
      });
    }
  }
}

/** An SQS call: half a latency there, the queue's answer, half a latency back. */
async function sqsRoundTrip<T>(site: CallSite, serve: () => Promise<T> | T): Promise<T> {
  site.onMessagingCall?.();
  const l = site.latency();
  await site.clock.sleep(l / 2);
  const out = await serve();
  await site.clock.sleep(l / 2);
  return out;
}

/** An SQS or SNS call whose answer the model does not need (a send, a publish). */
const sqsCall = (site: CallSite): Promise<void> => sqsRoundTrip(site, () => undefined);

/**
 * The outbox's batch ports as a function sends them from `site`: calls of ≤ 10 entries each, one after another
 * (adapters/sqs.ts, adapters/sns.ts); each handoff and notification is tallied as the service applies it, and a
 * notification's first publish is when its requester is notified.
 */
function sendingPorts(world: World, site: CallSite): OutboxPorts {
  const { clock } = world;
  const batchCalls = async (n: number, applied: (from: number, to: number) => void): Promise<{ failed: [] }> => {
    if (world.o.freeAfterSlots === true) {
      applied(0, n);
      return { failed: [] };
    }
    for (let i = 0; i < n; i += 10) await sqsRoundTrip(site, () => applied(i, Math.min(n, i + 10)));
    return { failed: [] };
  };
  return {
    handoffs: {
      sendBatch: (_queue, handoffs) =>
        batchCalls(handoffs.length, (from, to) => {
          for (const h of handoffs.slice(from, to)) world.tally.applied(h.handoffId);
        }),
    },
    results: {
      publishBatch: (messages: readonly ResultMessage[]) =>
        batchCalls(messages.length, (from, to) => {
          for (const m of messages.slice(from, to)) {
            world.tally.applied(m.id);
            const id = m.attributes.requestId; // the filter attribute: the model's request ids are short and plain
            if (id !== undefined && !world.notifiedAt.has(id)) world.notifiedAt.set(id, clock.now);
          }
        }),
    },
  };
}

/** A function's pack source: its own cache, a miss read from the packs table from `site`. */
function modelledPacks(world: World, site: CallSite) {
  return cachedPackSource({
    getPack: (digest) => dynamoCall(site, async () => (digest === world.work.packDigest ? world.work.packBytes : null)),
    resolveAlias: async () => null,
  });
}

/** The request id of a request body (the model's bodies are all readable requests). */
const requestIdOf = (body: string): string => (JSON.parse(body) as { requestId: string }).requestId;

/** One delivery-stage consumer instance: its own SDK clients (retry quota), pack cache and store. */
function startDeliveryConsumer(world: World, index: number): void {
  const { clock } = world;
  const site: CallSite = {
    clock,
    meter: world.meter,
    latency: world.dynamoLatency,
    retry: { sleep: (ms) => clock.sleep(ms), rand: prng(world.o.seed * 104_729 + index), quota: new RetryQuota() },
    cpuDone: () => Promise.resolve(),
  };
  const sqsSite: CallSite = { ...site, latency: world.sqsLatency, onMessagingCall: () => (world.messagingCalls += 1) };
  void consumeDeliveryJobs({
    clock,
    queue: world.deliveryQueue,
    batchSize: world.o.batchSize,
    sqs: (serve) => sqsRoundTrip(sqsSite, serve),
    invokeMs: world.sqsLatency,
    store: new ModelledLedgerStore(world.table, site),
    packs: modelledPacks(world, site),
    outbox: sendingPorts(world, sqsSite),
    config: world.config,
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
  readonly dynamoLatency: () => number;
  readonly sqsLatency: () => number;
  readonly sentAt = new Map<string, number>();
  /** Request id → virtual time its result notification was first published (the publish applied at the topic). */
  readonly notifiedAt = new Map<string, number>();
  /** The delivery stage's standard queue of jobs (the shipped design). */
  readonly deliveryQueue: SimQueue;
  readonly delivery: DeliveryCounts = noDeliveryCounts();
  readonly tally = new DeliveryTally();
  deadLettered = 0;
  failedRecords = 0;
  /** SQS and SNS calls by the functions (receives, deletes, sends, publishes; the requesters' sends not included). */
  messagingCalls = 0;
  readonly batches: BatchTimes[] = [];
  /** Group → virtual time its last batch was deleted (waiting for the next take). */
  private readonly unlockedAt = new Map<string, number>();
  readonly unlockGaps: number[] = [];

  constructor(
    readonly design: Design,
    readonly work: Workload,
    readonly o: ScaleOptions,
  ) {
    this.meter = new CapacityMeter(o.throttle);
    this.config = pipelineConfig(logIdsFor(o.logs));
    const rand = prng(o.seed);
    this.dynamoLatency = lognormalLatency(o.dynamoLatency, rand);
    this.sqsLatency = lognormalLatency(o.sqsLatency, rand);
    this.deliveryQueue = new SimQueue(this.clock, 'standard', o.visibilityTimeoutSeconds * 1000);
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

/** The thin sequence function: intake batch → one SendMessageBatch to the ledger FIFO queue (group = log) → delete. */
async function sequence(world: World, index: number, intake: SimQueue, ledgerQueue: SimQueue): Promise<never> {
  const site: CallSite = {
    clock: world.clock,
    meter: world.meter,
    latency: world.sqsLatency,
    retry: { sleep: (ms) => world.clock.sleep(ms), rand: prng(index), quota: new RetryQuota() },
    cpuDone: () => Promise.resolve(),
    onMessagingCall: () => (world.messagingCalls += 1),
  };
  for (;;) {
    const messages = await sqsRoundTrip(site, () => intake.receive(world.o.batchSize));
    await world.clock.sleep(world.sqsLatency()); // invoke
    for (const m of messages) if (m.receiveCount > 1) world.tally.redeliveredRequest(requestIdOf(m.body));
    await sqsRoundTrip(site, () => {
      for (const m of messages) {
        ledgerQueue.send(m.body, ledgerGroupOf(m.body, m.messageId, world.config.logIds));
      }
    });
    await sqsRoundTrip(site, () => intake.delete(messages));
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
 * Bisects the Poisson arrival rate between 0 and `ceiling` (a design's sustained rate, which no rate reaches with a
 * bounded p99) for `steps` runs: a run meeting the target raises the lower end, one missing it lowers the upper. p99
 * is not strictly monotone in the rate (it varies by a few ms with the draws), so the answer is a rate that met the
 * target in its run with the next rate tried above it missing, to within ceiling / 2^steps.
 */
export async function rateAtP99(
  design: Design,
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
    const run = await simulate(design, work, o, { kind: 'poisson', perSecond: rate });
    if (run.p99Ms <= targetMs) [low, p99Ms] = [rate, run.p99Ms];
    else high = rate;
  }
  return { targetMs, requestsPerSecond: low, p99Ms, missedAtRequestsPerSecond: high, steps };
}

/** Runs one design over the workload and returns its figures; throws if the model stalls. */
export async function simulate(
  design: Design,
  work: Workload,
  o: ScaleOptions,
  arrivals: Arrivals,
): Promise<RunFigures> {
  if (work.requestIds.length !== o.appends) throw new RangeError('the workload must hold exactly `appends` requests');
  if (o.freeAfterSlots === true && byStage(design))
    throw new RangeError('freeAfterSlots prices the work after the slot writes under the lock: the stage has none');
  if (o.deliveryInstances !== undefined && !(Number.isSafeInteger(o.deliveryInstances) && o.deliveryInstances >= 1))
    throw new RangeError('deliveryInstances must be an integer ≥ 1');
  const world = new World(design, work, o);
  const { clock } = world;
  const visibilityMs = o.visibilityTimeoutSeconds * 1000;
  const intake = new SimQueue(clock, 'standard', visibilityMs);
  const ledgerQueue = new SimQueue(clock, 'fifo', visibilityMs);
  const consumed = sequenced(design) ? ledgerQueue : intake;
  if (consumed === ledgerQueue) {
    const receive = ledgerQueue.receive.bind(ledgerQueue);
    ledgerQueue.receive = async (max) => {
      const got = await receive(max);
      world.onTaken(got, clock.now);
      return got;
    };
  }
  for (let i = 0; i < o.instances; i++) void new Instance(world, i).consume(world, consumed);
  if (byStage(design)) for (let i = 0; i < (o.deliveryInstances ?? o.instances); i++) startDeliveryConsumer(world, i);
  if (sequenced(design))
    for (let i = 0; i < o.sequencers; i++) void sequence(world, o.seed * 31 + i, intake, ledgerQueue);

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
    throw new Error(`the model stalled: ${durable.size} of ${o.appends} requests recorded (${design})`);
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
    world.config,
    cachedPackSource({ getPack: async () => work.packBytes, resolveAlias: async () => null }),
  );
  const hotW = world.meter.hottest(LEDGER_TABLE, 'wcu', 0, end);
  const hotR = world.meter.hottest(LEDGER_TABLE, 'rcu', 0, end);
  return {
    design,
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
    messagingCallsPerRequest: world.messagingCalls / o.appends,
    chainValid: verdict.ok && verdict.value.ok && findings.length === 0,
    oneEntryPerRequest:
      entries === o.appends &&
      work.requestIds.every((id) => counts.get(id) === 1) &&
      !findings.includes('duplicate-request'),
    verifyFindings: [...new Set(findings)],
    deliveredOnce: deliveries.ok && world.delivery.jobsRefused === 0,
    deliveries,
    ...(byStage(design)
      ? { delivery: { ...world.delivery, sqsCallsPerEntry: world.delivery.sqsCalls / o.appends } }
      : {}),
    entryItemBytes: { stored: rangeOf(stored), plain: rangeOf(plain) },
    ...(sequenced(design) ? { breakdown: breakdownOf(world) } : {}),
    virtualSeconds: end / 1000,
  };
}

function breakdownOf(world: World): BatchBreakdown {
  const b = world.batches.filter((x) => x.records > 0);
  const mean = (f: (x: BatchTimes) => number): number =>
    b.length === 0 ? 0 : b.reduce((s, x) => s + f(x), 0) / b.length;
  const withSlots = b.filter((x) => x.firstSlotSent !== undefined);
  const meanSlots = (f: (x: BatchTimes) => number): number =>
    withSlots.length === 0 ? 0 : withSlots.reduce((s, x) => s + f(x), 0) / withSlots.length;
  const gaps = world.unlockGaps;
  return {
    batches: b.length,
    recordsPerBatch: mean((x) => x.records),
    groupsPerBatch: mean((x) => x.groups.length),
    receiveToInvokeMs: mean((x) => x.invoked - x.taken),
    beforeSlotsMs: meanSlots((x) => x.firstSlotSent! - x.invoked),
    slotWritesMs: meanSlots((x) => x.lastSlotAnswered! - x.firstSlotSent!),
    slotCallsPerBatch: meanSlots((x) => x.slotCalls),
    afterSlotsMs: meanSlots((x) => x.returned - x.lastSlotAnswered!),
    deleteMs: mean((x) => x.deleted - x.returned),
    unlockToNextTakeMs: gaps.length === 0 ? 0 : gaps.reduce((s, g) => s + g, 0) / gaps.length,
  };
}
