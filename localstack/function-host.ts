/**
 * Runs the stack's functions — their handler modules and the event-source pollers that invoke them — on worker
 * threads of their own, as Lambda runs a function apart from the services it calls (ADR 0068). Each worker is one
 * instance (an execution environment): its own module state, its own copy of the environment (the function's, from
 * the template) and its own pollers with its share of each event source's MaximumConcurrency, as Lambda runs several
 * instances of a function (ADR 0259). Instances share nothing with the emulators or with each other but the wire:
 * they reach the services over HTTP like any client, and two instances appending to one log are two writers the
 * append protocol already serializes (conditional creates; docs/ledger-format.md).
 *
 * Main side: startFunctionHost(). Worker side: function-host-worker.ts (a module of its own, so that a bundle of the
 * stack process is never re-entered as a worker).
 */
import { Worker } from 'node:worker_threads';
import type { LocalEventSource } from './provision.js';
import { eventSourceConcurrency } from './event-source-poller.js';
import { instancesFor } from './function-instances.js';

export interface FunctionBinding {
  /** An ES module exporting the function's `handler`. */
  readonly module: string;
  /** Overrides the queue's visibility timeout for received records (tests that wait for a redelivery). */
  readonly visibilityTimeoutSeconds?: number;
  /** The event sources (from the template) whose records this module's handler receives. */
  readonly sources: readonly LocalEventSource[];
}

export interface FunctionHostConfig {
  readonly bindings: readonly FunctionBinding[];
  /** The edge endpoint (SQS and every other service). */
  readonly endpoint: string;
  /** The DynamoDB emulator's own endpoint (a function reaches DynamoDB directly, as in a region). */
  readonly dynamodbEndpoint: string;
  /** The SQS/SNS emulator's own endpoint (likewise: the function's queue and topic calls skip the edge, ADR 0251). */
  readonly sqsEndpoint: string;
  readonly region: string;
  /** How many instances to run (default 1; capped by the sources' concurrency: ADR 0259, function-instances.ts). */
  readonly instances?: number;
}

/** What one instance's worker is given: the host's config and which instance it is. */
export interface InstanceConfig extends FunctionHostConfig {
  /** 0-based slot of this instance among `count`; it takes concurrencyShare(total, slot, count) of each source. */
  readonly slot: number;
  readonly count: number;
  /** Its log stream (context.logStreamName, AWS_LAMBDA_LOG_STREAM_NAME): new for each replacement, as in Lambda. */
  readonly logStreamName: string;
}

export interface FunctionHost {
  /** The instances running (each one a worker thread named 'function'). */
  readonly instances: number;
  /**
   * Stops taking new batches, lets in-flight invocations finish (and their deletes be sent) for at most `drainMs`
   * (default 30 s), then ends every instance. Records of a batch cut off stay on their queue and reappear after their
   * visibility timeout, as with a Lambda instance that dies (ADR 0112). Resolves with whether the drain finished.
   */
  stop(drainMs?: number): Promise<{ drained: boolean }>;
}

export type HostMessage =
  { kind: 'ready' } | { kind: 'failed'; error: string } | { kind: 'log'; text: string } | { kind: 'stopped' };

/**
 * Starts the function's instances and waits until every poller of each runs (or one reports why it could not
 * start). An instance that dies later — its thread exits mid-invocation, as a crashed or killed Lambda instance does —
 * is replaced after a second, as Lambda replaces it, while the others keep running: its in-flight records are simply
 * not deleted, so SQS redelivers them after their visibility timeout to whichever instance polls next (ADR 0065:
 * nothing is lost when the function dies).
 */
export async function startFunctionHost(
  config: FunctionHostConfig,
  log: (text: string) => void,
): Promise<FunctionHost> {
  const concurrencies = config.bindings.flatMap((b) => b.sources.map(eventSourceConcurrency));
  const count = instancesFor(config.instances ?? 1, concurrencies);
  let stopping = false;
  const generations = Array.from({ length: count }, () => 0);
  const launch = (slot: number): Promise<Instance> => {
    generations[slot]! += 1;
    const logStreamName = `local/instance-${slot + 1}.${generations[slot]}`;
    const prefix = count > 1 ? `function instance ${slot + 1}/${count}: ` : '';
    return startInstance({ ...config, slot, count, logStreamName }, (text) => log(`${prefix}${text}`));
  };
  const started = await Promise.allSettled(generations.map((_, slot) => launch(slot)));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    // One instance could not start: end the ones that did, and report why.
    await Promise.all(started.flatMap((r) => (r.status === 'fulfilled' ? [r.value.stop(0)] : [])));
    throw (failed as PromiseRejectedResult).reason;
  }
  const current = started.map((r) => (r as PromiseFulfilledResult<Instance>).value);
  const watch = (slot: number, instance: Instance): void => {
    void instance.exited.then((code) => {
      if (stopping) return;
      const which = count > 1 ? ` ${slot + 1}/${count}` : '';
      log(`function instance${which} exited (code ${code}); starting a new one`);
      setTimeout(() => {
        if (stopping) return;
        launch(slot).then(
          (next) => {
            if (stopping) return void next.stop(0); // stopped while the replacement was starting
            current[slot] = next;
            watch(slot, next);
          },
          (e: unknown) => log(`function instance${which} could not start: ${(e as Error).message}`),
        );
      }, 1_000);
    });
  };
  current.forEach((instance, slot) => watch(slot, instance));
  return {
    instances: count,
    stop: async (drainMs = 30_000) => {
      stopping = true;
      // Every instance drains at once, each within the same bound, so the whole stop stays within it.
      const results = await Promise.all(current.map((instance) => instance.stop(drainMs)));
      return { drained: results.every((r) => r.drained) };
    },
  };
}

interface Instance {
  readonly exited: Promise<number>;
  stop(drainMs: number): Promise<{ drained: boolean }>;
}

async function startInstance(config: InstanceConfig, log: (text: string) => void): Promise<Instance> {
  const worker = new Worker(new URL('./function-host-worker.js', import.meta.url), {
    workerData: config,
    // The thread's name (its /proc comm), so a profile can tell the function's CPU apart; every instance has the
    // same one, so a per-thread split adds the instances up under 'function'.
    name: 'function',
    // The handler and the SDK allocate short-lived objects per call; a 64 MB young generation scavenges less often.
    // Measured on the local pipeline (16 warm bursts each way, alternating): 4.9 vs 5.5 ms of stack CPU per request
    // (ADR 0068).
    resourceLimits: { maxYoungGenerationSizeMb: 64 },
  });
  let stopped: (() => void) | undefined;
  const exited = new Promise<number>((r) => worker.once('exit', r));
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: HostMessage) => {
      if (m.kind === 'ready') resolve();
      else if (m.kind === 'failed') reject(new Error(m.error));
      else if (m.kind === 'log') log(m.text);
      else if (m.kind === 'stopped') stopped?.();
    });
    worker.once('error', reject);
    void exited.then((code) => reject(new Error(`the function instance exited (${code}) before it was ready`)));
  });
  worker.removeAllListeners('error');
  worker.on('error', (e) => log(`function instance: ${e.message}`));
  return {
    exited,
    stop: async (drainMs) => {
      const done = new Promise<boolean>((r) => (stopped = () => r(true)));
      worker.postMessage('stop');
      // Pollers finish their in-flight invocations and deletes first; a wedged handler cannot hold the stack forever.
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        done,
        exited.then(() => true),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), drainMs))),
      ]);
      clearTimeout(timer);
      await worker.terminate();
      return { drained };
    },
  };
}
