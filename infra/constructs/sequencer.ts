/**
 * One writer per log (docs/adr/0270-one-writer-per-log.md): the internal FIFO ledger queue whose message group is
 * the log, its FIFO DLQ, and the sequence function that packs the intake batches' bodies, verbatim, into ledger
 * messages on it (docs/adr/0497-a-ledger-message-carries-many-requests.md).
 * FIFO delivers one batch per message group at a time, so the evaluate function, consuming this queue, has exactly
 * one writer per log whatever its maximumConcurrency.
 */
import { Duration } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { DocketConfig } from '../config.js';
import type { QueuePair } from '../names.js';
import { HANDLER_ENTRIES } from '../paths.js';
import { DocketFunction } from './docket-function.js';
import { denyExcept } from './deny-except.js';
import { eventSourceQueueProps, QueueWithDlq } from './intake.js';

export interface SequencerProps {
  readonly config: DocketConfig;
  readonly functionName: string;
  /** The FIFO ledger queue and its DLQ (names end in ".fifo"). */
  readonly names: QueuePair;
  readonly intake: sqs.IQueue;
  /** The function environment, given the ledger queue's URL (a token) once the queue exists. */
  readonly environment: (ledgerQueueUrl: string) => Record<string, string>;
  readonly codeSigningConfig: lambda.ICodeSigningConfig;
}

export class Sequencer extends QueueWithDlq {
  readonly function: DocketFunction;

  constructor(scope: Construct, id: string, props: SequencerProps) {
    super(scope, id, {
      ...eventSourceQueueProps(props.config, props.names),
      fifo: {
        // High-throughput FIFO: deduplication and throughput per message group (per log), not per queue.
        deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
        fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
        // The sequencer sets the deduplication id (the request digest); the body alone must not decide it.
        contentBasedDeduplication: false,
      },
    });
    const c = props.config;
    this.function = new DocketFunction(this, 'Sequence', {
      functionName: props.functionName,
      entry: HANDLER_ENTRIES.sequence,
      description: 'Docket: forward intake messages verbatim to the FIFO ledger queue, message group = ledger log',
      timeout: Duration.seconds(c.functionTimeoutSeconds),
      // It reads one request id per message: no evaluation, no signing.
      memoryMb: c.sequencerMemoryMb,
      logRetentionDays: c.logRetentionDays,
      bundleAwsSdk: c.bundleAwsSdk,
      codeSigningConfig: props.codeSigningConfig,
      environment: props.environment(this.queue.queueUrl),
    });
    // Receive/delete on the intake queue (the event source's grant), send to the ledger queue: nothing else.
    this.function.fn.addEventSource(
      new SqsEventSource(props.intake, {
        batchSize: c.batchSize,
        ...(c.maxBatchingWindowSeconds > 0 ? { maxBatchingWindow: Duration.seconds(c.maxBatchingWindowSeconds) } : {}),
        maxConcurrency: c.sequencerMaximumConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    this.queue.grantSendMessages(this.function.role);
  }

  get fn(): lambda.Function {
    return this.function.fn;
  }

  /** Only the sequencer (and the evaluate function, which forwards a claim-in-other-log) may send to the queue. */
  restrictSenders(senders: readonly iam.IRole[]): void {
    this.queue.addToResourcePolicy(
      denyExcept(
        'DenySendExceptSequencerAndEvaluate',
        ['sqs:SendMessage'],
        this.queue.queueArn,
        senders.map((r) => r.roleArn),
      ),
    );
  }
}
