/**
 * Runs the stack's functions — their handler modules and the event-source pollers that invoke them — on a worker
 * thread of their own, as Lambda runs a function apart from the services it calls (ADR 0068). The worker has its own
 * module state and its own copy of the environment (the function's, from the template), and shares nothing with the
 * emulators but the wire: it reaches them over HTTP like any client. Off the main thread, the handler's SDK work no
 * longer competes with the edge proxy and the SQS emulator for one core.
 *
 * Main side: startFunctionHost(). Worker side: function-host-worker.ts (a module of its own, so that a bundle of the
 * stack process is never re-entered as a worker).
 */
import { Worker } from 'node:worker_threads';
import type { LocalEventSource } from './provision.js';

export interface FunctionBinding {
  readonly module: string;
  readonly exportName?: string;
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
}

export interface FunctionHost {
  /**
   * Stops taking new batches, lets in-flight invocations finish (and their deletes be sent) for at most `drainMs`
   * (default 30 s), then ends the instance. Records of a batch cut off stay on their queue and reappear after their
   * visibility timeout, as with a Lambda instance that dies (ADR 0112). Resolves with whether the drain finished.
   */
  stop(drainMs?: number): Promise<{ drained: boolean }>;
}

export type HostMessage =
  { kind: 'ready' } | { kind: 'failed'; error: string } | { kind: 'log'; text: string } | { kind: 'stopped' };

/**
 * Starts the function instance and waits until every poller runs (or it reports why it could not start). An instance
 * that dies later — its thread exits mid-invocation, as a crashed or killed Lambda instance does — is replaced after
 * a second, as Lambda replaces it: its in-flight records are simply not deleted, so SQS redelivers them after their
 * visibility timeout to the new instance (ADR 0065: nothing is lost when the function dies).
 */
export async function startFunctionHost(
  config: FunctionHostConfig,
  log: (text: string) => void,
): Promise<FunctionHost> {
  let stopping = false;
  let current = await startInstance(config, log);
  const watch = (instance: Instance): void => {
    void instance.exited.then((code) => {
      if (stopping) return;
      log(`function instance exited (code ${code}); starting a new one`);
      setTimeout(() => {
        if (stopping) return;
        startInstance(config, log).then(
          (next) => {
            if (stopping) return void next.stop(0); // stopped while the replacement was starting
            current = next;
            watch(next);
          },
          (e: unknown) => log(`function instance could not start: ${(e as Error).message}`),
        );
      }, 1_000);
    });
  };
  watch(current);
  return {
    stop: async (drainMs = 30_000) => {
      stopping = true;
      return current.stop(drainMs);
    },
  };
}

interface Instance {
  readonly exited: Promise<number>;
  stop(drainMs: number): Promise<{ drained: boolean }>;
}

async function startInstance(config: FunctionHostConfig, log: (text: string) => void): Promise<Instance> {
  const worker = new Worker(new URL('./function-host-worker.js', import.meta.url), {
    workerData: config,
    // The thread's name (its /proc comm), so a profile or the pipeline bench can tell the function's CPU apart.
    name: 'function',
    // The handler and the SDK allocate short-lived objects per call; a 64 MB young generation scavenges less often.
    // Measured with pipeline.bench (16 warm bursts each way, alternating): 4.9 vs 5.5 ms of stack CPU per request.
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
