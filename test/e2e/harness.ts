/**
 * An end-to-end world over the docket-free local stack: dynalite + fauxqs behind one edge on an ephemeral port,
 * provisioned from infra's synthesized template, with event-source pollers invoking the real sequence runtime
 * (intake queue → FIFO ledger queue), the real evaluate runtime (FIFO ledger queue → ledger → delivery jobs) and the
 * real deliver runtime (delivery queue → positions, handoffs, notifications), the same wiring functions/sequence.ts,
 * functions/evaluate.ts and functions/deliver.ts use, with the signing key passed in rather than read from a file.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryIo } from '../../cli/io.js';
import { rfc3339Now, runCheckpoints } from '../../functions/lib/checkpoint-runner.js';
import { trustPolicyDocument } from '../../stack/local-files.js';
import { createDynamoDbClient, createSnsClient, createSqsClient } from '../../adapters/aws-clients.js';
import { DynamoDbLedgerStore } from '../../adapters/dynamodb-ledger-store.js';
import { DynamoDbPackRegistry } from '../../adapters/dynamodb-pack-registry.js';
import { DynamoDbRequestArchive } from '../../adapters/dynamodb-request-archive.js';
import { keyPairFromSeed, signerFromKeyPair, type Ed25519KeyPair } from '../../core/ledger/primitives/signature.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import type { DeliveryJobSender } from '../../core/pipeline/batch.js';
import type { HandoffBatchSender, ResultBatchPublisher } from '../../core/pipeline/ports.js';
import { deliverRuntimeFromEnv, type DeliverRuntime } from '../../functions/lib/deliver-runtime.js';
import { evaluateRuntimeFromEnv, type EvaluateRuntime } from '../../functions/lib/evaluate-runtime.js';
import { createSequenceRuntime } from '../../functions/lib/sequence-runtime.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { pollerOptionsFromEventSource, startPoller, type Poller } from '../../localstack/event-source-poller.js';
import { STAGE_PRESETS, type DocketConfig } from '../../infra/config.js';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';
import { templateFor } from './template.js';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SqsBatchHandler } from '../../functions/lib/batch-metrics.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

export interface E2eWorld {
  readonly stack: LocalStack;
  readonly env: Record<string, string>;
  readonly keys: Ed25519KeyPair;
  /** The checkpoint writer's own key (never given to the evaluate runtime). */
  readonly checkpointKeys: Ed25519KeyPair;
  /** The docket.trust-policy/2 text for this stack (entry key, checkpoint key, build 'e'×64). */
  readonly policyText: string;
  readonly runtime: EvaluateRuntime;
  /** The evaluate function's poller (FIFO ledger queue). */
  readonly poller: Poller;
  /** The sequence function's poller (intake queue → FIFO ledger queue). */
  readonly sequencePoller: Poller;
  /** The deliver function's poller (delivery queue → positions, handoffs, notifications), unless turned off. */
  readonly deliverPoller: Poller | undefined;
  /** The deliver function's runtime (the one its poller invokes). */
  readonly deliverRuntime: DeliverRuntime;
  /** The deliver function's environment, from the template. */
  readonly deliverEnv: Record<string, string>;
  readonly dynamodb: ReturnType<typeof createDynamoDbClient>;
  readonly sqs: ReturnType<typeof createSqsClient>;
  /** The SNS client the deliver runtime publishes with (tests may add middleware to watch its calls). */
  readonly sns: ReturnType<typeof createSnsClient>;
  readonly store: DynamoDbLedgerStore;
  readonly registry: DynamoDbPackRegistry;
  readonly archive: DynamoDbRequestArchive;
  readonly queueUrl: (suffix: string) => string;
  /** A trust policy file pinning this stack's key, logs and build (what a consumer passes to `docket handoffs`). */
  readonly policyPath: string;
  /** The routes this stack was deployed with, as a file (what a consumer passes to `docket handoffs --routes`). */
  readonly routesPath: string;
  /** Checkpoints every log, then runs `docket verify` over the live table under a trust policy for this stack. */
  verify(): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  /** A cold start of the evaluate function: the poller and runtime are replaced (no warm head cache survives). */
  coldStart(): Promise<void>;
  stop(): Promise<void>;
}

export interface E2eOptions {
  readonly config?: Partial<DocketConfig>;
  /** Wraps the deliver function's handoff sender (fault injection). */
  readonly wrapSender?: (s: HandoffBatchSender) => HandoffBatchSender;
  /** Wraps the deliver function's result publisher (fault injection). */
  readonly wrapPublisher?: (p: ResultBatchPublisher) => ResultBatchPublisher;
  /** Wraps the evaluate function's delivery job sender (fault injection). */
  readonly wrapJobs?: (s: DeliveryJobSender) => DeliveryJobSender;
  /** false: no deliver poller runs; the test receives the jobs and drives `deliverRuntime()` itself. */
  readonly deliverPolling?: boolean;
  /** Visibility timeout the poller asks for, seconds (short, so redelivery tests are quick). */
  readonly visibilityTimeout?: number;
  readonly stage?: string;
  /** Wraps each function's handler as its poller invokes it (measurement: functions/lib/batch-metrics.ts). */
  readonly wrapHandler?: (fn: 'sequence' | 'evaluate' | 'deliver', handle: SqsBatchHandler) => SqsBatchHandler;
  /** Makes the DynamoDB client the evaluate and deliver runtimes call through (default: the world's own `dynamodb`). */
  readonly functionsDynamodb?: (stack: LocalStack) => DynamoDBClient;
}

/** The flags that point a `docket` command at `w`'s stack under `stage`. */
export const stackFlags = (w: E2eWorld, stage: string): string[] => [
  '--endpoint',
  w.stack.endpoint,
  '--region',
  w.stack.region,
  '--stage',
  stage,
];

export async function startE2e(o: E2eOptions = {}): Promise<E2eWorld> {
  const stage = o.stage ?? 'e2e';
  // The e2e stage reuses the local stage's route configuration (every example pack target has a queue).
  const deployed = { ...STAGE_PRESETS.local, ...o.config, stage };
  const template = await templateFor(deployed);
  const stack = await startLocalStack({ port: 0, stage, template: template as never });
  const es = stack.resources.eventSources.find((x) => x.function.logicalId.includes('Evaluate'));
  const sequenceEs = stack.resources.eventSources.find((x) => x.function.logicalId.includes('Sequence'));
  const deliverEs = stack.resources.eventSources.find((x) => x.function.logicalId.includes('DelivererDeliver'));
  if (!es || !sequenceEs || !deliverEs) throw new Error('the template defines no evaluate, sequence or deliver source');
  const env: Record<string, string> = { ...es.environment, AWS_ENDPOINT_URL: stack.endpoint, AWS_REGION: stack.region };
  const dynamodb = createDynamoDbClient({ endpoint: stack.endpoint, region: stack.region });
  const sqs = createSqsClient({ endpoint: stack.endpoint, region: stack.region });
  const sns = createSnsClient({ endpoint: stack.endpoint, region: stack.region });
  const keys = keyPairFromSeed(new Uint8Array(randomBytes(32)));
  const checkpointKeys = keyPairFromSeed(new Uint8Array(randomBytes(32)));
  const logIdsOfStack = JSON.parse(env.LOG_IDS!) as string[];
  const policyText = trustPolicyDocument({
    keys,
    checkpointKey: checkpointKeys,
    logIds: logIdsOfStack,
    environment: stage,
    table: env.LEDGER_TABLE!,
    evaluatorBuilds: ['e'.repeat(64)],
  });
  const parsedPolicy = readTrustPolicy(new TextEncoder().encode(policyText));
  if (!parsedPolicy.ok) throw new Error(parsedPolicy.error.detail);
  const wrap = o.wrapHandler ?? ((_fn, handle) => handle);
  const functionsDynamodb = o.functionsDynamodb?.(stack) ?? dynamodb;
  const newRuntime = () =>
    evaluateRuntimeFromEnv({
      env,
      signer: signerFromKeyPair(keys),
      buildDigest: 'e'.repeat(64),
      dynamodb: functionsDynamodb,
      sqs,
      ...(o.wrapJobs ? { wrapJobs: o.wrapJobs } : {}),
    });
  const newPoller = (r: EvaluateRuntime) =>
    startPoller(
      pollerOptionsFromEventSource(
        es,
        wrap('evaluate', (event) => r.handle(event)),
        {
          client: sqs,
          waitTimeSeconds: 1,
          ...(o.visibilityTimeout !== undefined ? { visibilityTimeout: o.visibilityTimeout } : {}),
        },
      ),
    );
  let runtime = newRuntime();
  let poller = newPoller(runtime);
  const sequence = createSequenceRuntime({
    sqs,
    ledgerQueueUrl: sequenceEs.environment.LEDGER_QUEUE_URL!,
    logIds: JSON.parse(sequenceEs.environment.LOG_IDS!) as string[],
  });
  const sequencePoller = startPoller(
    pollerOptionsFromEventSource(
      sequenceEs,
      wrap('sequence', (event) => sequence.handle(event)),
      {
        client: sqs,
        waitTimeSeconds: 1,
        ...(o.visibilityTimeout !== undefined ? { visibilityTimeout: o.visibilityTimeout } : {}),
      },
    ),
  );
  const deliverEnv: Record<string, string> = {
    ...deliverEs.environment,
    AWS_ENDPOINT_URL: stack.endpoint,
    AWS_REGION: stack.region,
  };
  const deliver: DeliverRuntime = deliverRuntimeFromEnv({
    env: deliverEnv,
    dynamodb: functionsDynamodb,
    sqs,
    sns,
    ...(o.wrapSender ? { wrapSender: o.wrapSender } : {}),
    ...(o.wrapPublisher ? { wrapPublisher: o.wrapPublisher } : {}),
  });
  const deliverPoller =
    o.deliverPolling === false
      ? undefined
      : startPoller(
          pollerOptionsFromEventSource(
            deliverEs,
            wrap('deliver', (event) => deliver.handle(event)),
            {
              client: sqs,
              waitTimeSeconds: 1,
              ...(o.visibilityTimeout !== undefined ? { visibilityTimeout: o.visibilityTimeout } : {}),
            },
          ),
        );
  const queueUrl = (suffix: string): string => {
    const q = stack.resources.queues.find((x) => x.name === `docket-${stage}-${suffix}`);
    if (!q) throw new Error(`no queue docket-${stage}-${suffix}`);
    return q.url;
  };
  const policyDir = mkdtempSync(join(tmpdir(), 'docket-e2e-policy-'));
  const policyPath = join(policyDir, 'trust-policy.json');
  writeFileSync(policyPath, policyText);
  const routesPath = join(policyDir, 'routes.json');
  writeFileSync(routesPath, JSON.stringify(deployed.routes ?? []));
  return {
    stack,
    env,
    keys,
    checkpointKeys,
    policyText,
    policyPath,
    routesPath,
    get runtime() {
      return runtime;
    },
    get poller() {
      return poller;
    },
    sequencePoller,
    deliverPoller,
    deliverRuntime: deliver,
    deliverEnv,
    async coldStart() {
      await poller.stop();
      // The server may still hold the aborted long poll (waitTimeSeconds 1): a message it handed to that dead
      // receive would stay invisible for a whole visibility timeout. Let it expire first.
      await new Promise((r) => setTimeout(r, 1_500));
      runtime = newRuntime();
      poller = newPoller(runtime);
    },
    dynamodb,
    sqs,
    sns,
    store: new DynamoDbLedgerStore({ client: dynamodb, tableName: env.LEDGER_TABLE! }),
    registry: new DynamoDbPackRegistry({ client: dynamodb, tableName: env.PACKS_TABLE! }),
    archive: new DynamoDbRequestArchive({ client: dynamodb, tableName: env.REQUESTS_TABLE! }),
    queueUrl,
    async verify() {
      const dir = mkdtempSync(join(tmpdir(), 'docket-e2e-verify-'));
      try {
        const store = new DynamoDbLedgerStore({ client: dynamodb, tableName: env.LEDGER_TABLE! });
        const origin = { environment: stage, table: env.LEDGER_TABLE! };
        const cp = await runCheckpoints({
          store,
          signer: signerFromKeyPair(checkpointKeys),
          policy: parsedPolicy.value,
          logIds: logIdsOfStack,
          origin,
          time: rfc3339Now(),
        });
        writeFileSync(join(dir, 'checkpoints.json'), cp.export);
        writeFileSync(join(dir, 'policy.json'), policyText);
        const io = memoryIo();
        const { run } = await import('../../cli/commands/verify.js');
        const exitCode = await run(
          [
            '--endpoint',
            stack.endpoint,
            '--region',
            stack.region,
            '--stage',
            stage,
            '--policy',
            join(dir, 'policy.json'),
            '--checkpoints',
            join(dir, 'checkpoints.json'),
          ],
          io,
        );
        return { exitCode, stdout: io.out(), stderr: io.err() };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    async stop() {
      await sequencePoller.stop();
      await poller.stop();
      await deliverPoller?.stop();
      dynamodb.destroy();
      sqs.destroy();
      sns.destroy();
      await stack.stop();
      rmSync(policyDir, { recursive: true, force: true });
    },
  };
}

/** Sends one request body to `w`'s intake queue and returns the entry the stack records for it, with its bytes. */
export async function recordedEntry(
  w: E2eWorld,
  requestId: string,
  body: string,
): Promise<{ entry: SignedEntry; body: string }> {
  await w.sqs.send(new SendMessageCommand({ QueueUrl: w.queueUrl('intake'), MessageBody: body }));
  for (let i = 0; i < 150; i++) {
    const at = await findPosition(w.store, requestId);
    if (at !== null)
      for await (const s of w.store.readEntries(at.logId, at.seq, at.seq)) {
        const parsed = parseStoredEntry(s.body);
        if (!parsed.ok) throw new Error(parsed.error.detail);
        return { entry: parsed.value.entry, body: s.body };
      }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${requestId} never recorded`);
}
