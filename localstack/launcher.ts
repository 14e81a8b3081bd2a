/**
 * The docker-free local AWS stack: dynalite (DynamoDB, on a worker thread) and fauxqs 2 (SQS, SNS, S3) on ephemeral
 * loopback ports, behind one edge endpoint on 127.0.0.1:<port> (LocalStack's 4566 by default), provisioned with
 * exactly the tables, queues, buckets and topics of the CDK template (infra/synth.ts) — never a second hand-written
 * list (ADR 0066). With a data directory both emulators persist: dynalite in LevelDB, fauxqs in SQLite (ADR 0111).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import {
  createDynamoDbClient,
  createSnsClient,
  createSqsClient,
  DEFAULT_LOCAL_REGION,
  LOCAL_CREDENTIALS,
} from '../adapters/aws-clients.js';
import { startEdgeProxy, type EdgeProxy } from './edge-proxy.js';
import { useNormalSqliteSync } from './fauxqs-sync.js';
import { useFifoGroupReceive } from './fauxqs-fifo-receive.js';
import { useDeadLetterSource } from './fauxqs-dead-letter-source.js';
import { planFromTemplate, type CfnTemplate } from './template-plan.js';
import { provision, type LocalResources } from './provision.js';

export interface LocalStackOptions {
  /** Edge port on 127.0.0.1: default 4566; 0 = ephemeral (tests). */
  readonly port?: number;
  readonly host?: string;
  /**
   * Where state survives restarts and crashes: `<dataDir>/dynamodb` (dynalite's LevelDB: tables) and
   * `<dataDir>/queues` (fauxqs's SQLite: messages with their receive counts and visibility, DLQs, topics,
   * subscriptions, S3 objects). Everything is in memory when absent.
   */
  readonly dataDir?: string;
  /** Stage whose template is synthesized (default "local"). */
  readonly stage?: string;
  readonly region?: string;
  /** Draft features the synthesized evaluate function enables (infra/config.ts `draftFeatures`; default none). */
  readonly draftFeatures?: readonly string[];
  /** A CloudFormation template to provision instead of synthesizing infra's (fixtures, other stacks). */
  readonly template?: CfnTemplate;
  /** false: start the emulators and the edge only. */
  readonly provision?: boolean;
}

export interface LocalStack {
  readonly endpoint: string;
  readonly port: number;
  readonly region: string;
  readonly resources: LocalResources;
  /** The DynamoDB emulator's own endpoint, for functions the stack runs in-process (ADR 0068). */
  readonly dynamodbEndpoint: string;
  /** The SQS/SNS emulator's own endpoint, for functions the stack runs in-process (ADR 0251). */
  readonly sqsEndpoint: string;
  stop(): Promise<void>;
}

const EMPTY_RESOURCES: LocalResources = { tables: [], queues: [], eventSources: [], byLogicalId: new Map() };

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const region = options.region ?? DEFAULT_LOCAL_REGION;
  const host = options.host ?? '127.0.0.1';
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const dirs = options.dataDir
      ? { dynamodb: join(options.dataDir, 'dynamodb'), queues: join(options.dataDir, 'queues') }
      : undefined;
    if (dirs) for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
    if (dirs) await useNormalSqliteSync();
    // Always: a FIFO receive takes up to ten messages of one group, as SQS does (ADR 0401), and a message SQS's
    // redrive moved to a DLQ says where from (DeadLetterQueueSourceArn, ADR 0455).
    await useFifoGroupReceive();
    await useDeadLetterSource();
    const dynamo = await startDynalite({ dataDir: dirs?.dynamodb });
    stops.push(dynamo.stop);
    const fauxqs: FauxqsServer = await startFauxqs({
      port: 0,
      host: 'localhost',
      logger: false,
      defaultRegion: region,
      ...(dirs ? { dataDir: dirs.queues } : {}),
    });
    stops.push(() => fauxqs.stop());
    const edge: EdgeProxy = await startEdgeProxy({
      host,
      port: options.port ?? 4566,
      dynamodbUpstream: dynamo.url,
      sqsUpstream: `http://127.0.0.1:${fauxqs.port}`,
      defaultRegion: region,
    });
    stops.push(() => edge.close());

    let resources = EMPTY_RESOURCES;
    if (options.provision !== false) {
      resources = await provisionAt(edge.endpoint, {
        stage: options.stage,
        region,
        template: options.template,
        ...(options.draftFeatures !== undefined ? { draftFeatures: options.draftFeatures } : {}),
      });
      edge.denySends(resources.sendDeniedQueues ?? []);
    }
    let stopped: Promise<void> | undefined;
    return {
      endpoint: edge.endpoint,
      port: edge.port,
      region,
      resources,
      dynamodbEndpoint: dynamo.url,
      sqsEndpoint: `http://127.0.0.1:${fauxqs.port}`,
      stop: () => (stopped ??= stopAll()),
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/**
 * Provisions infra's tables and queues on a stack someone else runs — real LocalStack under Docker
 * (localstack/docker-compose.yml) — through the same plan and wire calls the docker-free launcher uses.
 */
export async function provisionAt(
  endpoint: string,
  options: { stage?: string; region?: string; template?: CfnTemplate; draftFeatures?: readonly string[] } = {},
): Promise<LocalResources> {
  const region = options.region ?? DEFAULT_LOCAL_REGION;
  const template = options.template ?? (await synthesize(options.stage ?? 'local', options.draftFeatures));
  const clients = {
    dynamodb: createDynamoDbClient({ endpoint, region }),
    sqs: createSqsClient({ endpoint, region }),
    s3: new S3Client({ endpoint, region, credentials: { ...LOCAL_CREDENTIALS }, forcePathStyle: true }),
    sns: createSnsClient({ endpoint, region }),
  };
  try {
    return await provision(planFromTemplate(template), clients, region);
  } finally {
    clients.dynamodb.destroy();
    clients.sqs.destroy();
    clients.s3.destroy();
    clients.sns.destroy();
  }
}

/** infra's synthesized template for a stage (CDK bundling skipped; see infra/synth.ts). */
export async function synthesize(stage: string, draftFeatures: readonly string[] = []): Promise<CfnTemplate> {
  // Loaded on demand: aws-cdk-lib is heavy and not needed when a template is passed in.
  const { synthesizeTemplate } = await import('../infra/synth.js');
  // The configuration validates the names (infra/config.ts), so an unknown feature fails here, before any resource.
  return synthesizeTemplate({ stage, ...(draftFeatures.length > 0 ? { draftFeatures } : {}) }) as CfnTemplate;
}

/**
 * dynalite runs on a worker thread of its own: DynamoDB emulation (request validation, LevelDB) is the busiest part
 * of the local stack, and off the main thread it no longer competes with the edge proxy, fauxqs and the handler the
 * daemon runs. The worker is plain CommonJS evaluated from a string so it runs the same from sources and from dist/;
 * dynalite runs exactly as published (ADR 0420).
 */
const DYNALITE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const dynalite = require(workerData.dynalitePath);
const server = dynalite({ path: workerData.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.once('error', (e) => parentPort.postMessage({ error: String(e && e.message || e) }));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'stop') { server.close(() => parentPort.postMessage({ stopped: true })); server.closeAllConnections(); }
});
`;

/**
 * dynalite alone on its worker thread, listening on an ephemeral loopback port; its LevelDB in `dataDir` (in memory
 * when absent). Tables are ACTIVE at once: the stack never waits for CREATING/UPDATING/DELETING.
 */
async function startDynalite(options: {
  readonly dataDir?: string;
}): Promise<{ url: string; stop: () => Promise<void> }> {
  const worker = new Worker(DYNALITE_WORKER, {
    eval: true,
    name: 'dynalite',
    workerData: {
      dynalitePath: createRequire(import.meta.url).resolve('dynalite'),
      dataDir: options.dataDir,
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`dynalite worker exited (${code}) before listening`)));
    worker.once('message', (m: { port?: number; error?: string }) =>
      m.port !== undefined ? resolve(m.port) : reject(new Error(`dynalite: ${m.error}`)),
    );
  });
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const stopped = new Promise<void>((resolve) => worker.once('message', () => resolve()));
      worker.postMessage('stop');
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 2_000))]);
      await worker.terminate();
    },
  };
}
