/**
 * The worker side of the function host (function-host.ts), one function instance: imports the handler modules with
 * the function's environment, runs their event-source pollers with this instance's share of each source's
 * concurrency (ADR 0259), reports ready/failed/log lines to the stack process and stops its
 * pollers (in-flight invocations and their deletes first) when told to.
 */
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { LOCAL_CREDENTIALS } from '../adapters/aws-clients.js';
import {
  eventSourceConcurrency,
  pollerOptionsFromEventSource,
  startPoller,
  type Poller,
  type SqsHandler,
} from './event-source-poller.js';
import type { HostMessage, InstanceConfig } from './function-host.js';
import { concurrencyShare } from './function-instances.js';

async function runWorker(config: InstanceConfig): Promise<void> {
  const post = (m: HostMessage): void => parentPort!.postMessage(m);
  const pollers: Poller[] = [];
  parentPort!.on('message', (m) => {
    if (m !== 'stop') return;
    void Promise.allSettled(pollers.map((p) => p.stop())).then(() => post({ kind: 'stopped' }));
  });
  try {
    for (const binding of config.bindings) {
      // The function's environment as the template defines it, pointed at this stack (as Lambda would see it).
      for (const es of binding.sources) Object.assign(process.env, es.environment);
      process.env.AWS_ENDPOINT_URL = config.endpoint;
      process.env.AWS_ENDPOINT_URL_DYNAMODB = config.dynamodbEndpoint;
      // Queue URLs stay the edge's (LocalStack-style): fauxqs finds a queue by the name in its URL (ADR 0251).
      process.env.AWS_ENDPOINT_URL_SQS = config.sqsEndpoint;
      process.env.AWS_ENDPOINT_URL_SNS = config.sqsEndpoint;
      process.env.AWS_REGION = config.region;
      // Lambda names each execution environment's log stream; it tells the instances apart.
      process.env.AWS_LAMBDA_LOG_STREAM_NAME = config.logStreamName;
      process.env.AWS_ACCESS_KEY_ID ??= LOCAL_CREDENTIALS.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY ??= LOCAL_CREDENTIALS.secretAccessKey;
      const mod = (await import(pathToFileURL(binding.module).href)) as Record<string, unknown>;
      const handler = mod.handler;
      if (typeof handler !== 'function') throw new Error(`${binding.module} exports no function handler`);
      for (const es of binding.sources) {
        const concurrency = concurrencyShare(eventSourceConcurrency(es), config.slot, config.count);
        if (concurrency === 0) continue; // the other instances take this source's whole concurrency
        pollers.push(
          startPoller(
            pollerOptionsFromEventSource(es, handler as SqsHandler, {
              endpoint: config.sqsEndpoint,
              region: config.region,
              concurrency,
              logStreamName: config.logStreamName,
              ...(binding.visibilityTimeoutSeconds !== undefined
                ? { visibilityTimeout: binding.visibilityTimeoutSeconds }
                : {}),
              onError: (e, where) =>
                post({ kind: 'log', text: `poller ${es.queueName} ${where}: ${(e as Error)?.message ?? String(e)}` }),
              onBatch: (b) => {
                if (b.outcome === 'success') return;
                const why = b.reason ? `: ${b.reason}` : '';
                post({
                  kind: 'log',
                  text: `poller ${es.queueName}: batch ${b.outcome} (${b.failed.length}/${b.messageIds.length} kept)${why}`,
                });
              },
            }),
          ),
        );
      }
    }
    post({ kind: 'ready' });
  } catch (e) {
    post({ kind: 'failed', error: (e as Error)?.stack ?? String(e) });
  }
}

void runWorker(workerData as InstanceConfig);
