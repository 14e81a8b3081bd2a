/**
 * The local stack as a process: `node dist/localstack/serve.js '<json ServeConfig>'`. Started detached by
 * daemon.ts (`docket local start`). It starts the stack, optionally
 * runs the event-source poller with real handler modules, writes its state file once ready, and on SIGTERM/SIGINT
 * stops gracefully (ADR 0112): the pollers stop taking batches, in-flight invocations finish within the drain bound,
 * the messages still on each queue are counted into the stop report, then the emulators stop and the state file goes.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { startLocalStack, type LocalStack, type LocalStackOptions } from './launcher.js';
import { startFunctionHost, type FunctionBinding, type FunctionHost } from './function-host.js';
import { resolveFunctionInstances } from './function-instances.js';
import { eventSourceConcurrency } from './event-source-poller.js';
import { createSqsClient } from '../adapters/aws-clients.js';
import { queueCounts, type QueueCount } from './queue-counts.js';
import { EXIT } from '../core/exit-codes.js';

export interface HandlerBinding {
  /** Path (absolute, or relative to the working directory) of an ES module exporting `handler`. */
  readonly module: string;
  /** Only event sources whose function logical id contains this text (default: every SQS event source). */
  readonly functionMatch?: string;
  /** Overrides the queue's visibility timeout for records this function receives (tests waiting for redelivery). */
  readonly visibilityTimeoutSeconds?: number;
}

export interface ServeConfig extends Pick<
  LocalStackOptions,
  'host' | 'dataDir' | 'stage' | 'region' | 'draftFeatures'
> {
  readonly port: number;
  /** Where to write the state JSON once ready (absent: print it on stdout only). */
  readonly stateFile?: string;
  readonly handlers?: readonly HandlerBinding[];
  /** Where a graceful stop writes its StopReport (absent: the log only). */
  readonly stopReportFile?: string;
  /** How long a graceful stop lets in-flight invocations finish, seconds (default 10). */
  readonly drainSeconds?: number;
  /** Function instances (worker threads) to run; absent: DOCKET_FUNCTION_INSTANCES, else the default (ADR 0259). */
  readonly functionInstances?: number;
}

/** What a graceful stop leaves behind for `docket local stop` to print. */
export interface StopReport {
  readonly pid: number;
  readonly stoppedAt: string;
  /** false: the drain bound ended in-flight invocations; their messages reappear after their visibility timeout. */
  readonly drained: boolean;
  readonly queues: readonly QueueCount[];
}

export interface StackState {
  readonly endpoint: string;
  readonly port: number;
  readonly pid: number;
  readonly region: string;
  readonly stage: string;
  readonly startedAt: string;
  readonly tables: Record<string, string>;
  readonly queues: Record<string, string>;
  /** S3 buckets by logical id (the checkpoint export bucket, same key layout as in AWS). */
  readonly buckets: Record<string, string>;
  readonly pollers: readonly { readonly queue: string; readonly function: string; readonly module: string }[];
  /** How many instances of the functions run, each a worker thread with its share of the concurrency (ADR 0259). */
  readonly functionInstances?: number;
  /** The draft features the stack's evaluate function enables; absent = none. */
  readonly draftFeatures?: readonly string[];
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ServeConfig;
  const stage = config.stage ?? 'local';
  const instances = resolveFunctionInstances(config.functionInstances, process.env);
  const log = (msg: string): void => void process.stderr.write(`${new Date().toISOString()} ${msg}\n`);
  // Declared before shutdown so a signal during start-up sees `undefined`, not a temporal-dead-zone error.
  // eslint-disable-next-line prefer-const
  let stack: LocalStack | undefined;
  let functions: FunctionHost | undefined;
  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`stopping (${signal}): no new batches; in-flight ones may finish`);
    const drain = await functions?.stop((config.drainSeconds ?? 10) * 1000);
    if (drain && !drain.drained) log('drain bound reached: unfinished batches reappear after their visibility timeout');
    if (stack) await writeStopReport(stack, drain?.drained ?? true).catch((e: unknown) => log(`stop report: ${e}`));
    await stack?.stop();
    if (config.stateFile) rmSync(config.stateFile, { force: true });
    log('stopped');
    process.exit(EXIT.OK);
  };
  const writeStopReport = async (s: LocalStack, drained: boolean): Promise<void> => {
    const sqs = createSqsClient({ endpoint: s.endpoint, region: s.region });
    try {
      const queues = await queueCounts(sqs, Object.fromEntries(s.resources.queues.map((q) => [q.name, q.url])));
      const report: StopReport = { pid: process.pid, stoppedAt: new Date().toISOString(), drained, queues };
      log(`queues at stop: ${queues.map((q) => `${q.queue}=${q.waiting}+${q.inFlight}`).join(' ')}`);
      if (config.stopReportFile) writeAtomically(config.stopReportFile, `${JSON.stringify(report, null, 2)}\n`);
    } finally {
      sqs.destroy();
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  stack = await startLocalStack({
    port: config.port,
    host: config.host,
    dataDir: config.dataDir,
    stage,
    region: config.region,
    ...(config.draftFeatures !== undefined ? { draftFeatures: config.draftFeatures } : {}),
  });
  log(`stack ready on ${stack.endpoint} (stage ${stage})`);
  const bound: Array<StackState['pollers'][number]> = [];
  const bindings: FunctionBinding[] = [];
  for (const binding of config.handlers ?? []) {
    const sources = stack.resources.eventSources.filter(
      (es) => es.enabled && (!binding.functionMatch || es.function.logicalId.includes(binding.functionMatch)),
    );
    if (sources.length === 0) throw new Error(`no enabled SQS event source matches ${binding.functionMatch ?? '*'}`);
    bindings.push({
      module: resolve(binding.module),
      ...(binding.visibilityTimeoutSeconds !== undefined
        ? { visibilityTimeoutSeconds: binding.visibilityTimeoutSeconds }
        : {}),
      sources,
    });
    for (const es of sources) {
      bound.push({ queue: es.queueName, function: es.function.logicalId, module: binding.module });
      log(
        `polling ${es.queueName} → ${binding.module} (batch ${es.batchSize}, concurrency ${eventSourceConcurrency(es)})`,
      );
    }
  }
  if (bindings.length > 0) {
    functions = await startFunctionHost(
      {
        bindings,
        endpoint: stack.endpoint,
        dynamodbEndpoint: stack.dynamodbEndpoint,
        sqsEndpoint: stack.sqsEndpoint,
        region: stack.region,
        instances,
      },
      log,
    );
    log(`function instances: ${functions.instances} (worker threads, sharing each source's concurrency)`);
  }
  const state: StackState = {
    endpoint: stack.endpoint,
    port: stack.port,
    pid: process.pid,
    region: stack.region,
    stage,
    startedAt: new Date().toISOString(),
    tables: Object.fromEntries(stack.resources.tables.map((t) => [t.logicalId, t.name])),
    queues: Object.fromEntries(stack.resources.queues.map((q) => [q.name, q.url])),
    buckets: Object.fromEntries((stack.resources.buckets ?? []).map((b) => [b.logicalId, b.name])),
    pollers: bound,
    ...(functions ? { functionInstances: functions.instances } : {}),
    ...(config.draftFeatures !== undefined && config.draftFeatures.length > 0
      ? { draftFeatures: [...config.draftFeatures] }
      : {}),
  };
  if (config.stateFile) writeAtomically(config.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(state)}\n`);
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file); // atomic: a reader sees no file or a whole one
}

main().catch((e: unknown) => {
  process.stderr.write(`${new Date().toISOString()} failed: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(EXIT.FAILED);
});
