/**
 * The evaluate function behind the FIFO ledger queue (docs/pipeline.md, docs/deploy.md,
 * docs/adr/0270-one-writer-per-log.md): SQS event source with partial batch responses, batch size and maximum
 * concurrency from configuration. FIFO sources take no batching window.
 */
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { DocketConfig } from '../config.js';
import { HANDLER_ENTRIES } from '../paths.js';
import { DocketFunction } from './docket-function.js';

export interface EvaluatorProps {
  readonly config: DocketConfig;
  readonly functionName: string;
  /** The FIFO ledger queue (message group = log). */
  readonly ledgerQueue: sqs.IQueue;
  readonly environment: Record<string, string>;
  readonly codeSigningConfig: lambda.ICodeSigningConfig;
}

export class Evaluator extends Construct {
  readonly function: DocketFunction;

  constructor(scope: Construct, id: string, props: EvaluatorProps) {
    super(scope, id);
    const c = props.config;
    this.function = new DocketFunction(this, 'Evaluate', {
      functionName: props.functionName,
      entry: HANDLER_ENTRIES.evaluate,
      description:
        'Docket: evaluate requests from the FIFO ledger queue, append one signed ledger entry each, send delivery jobs',
      timeout: Duration.seconds(c.functionTimeoutSeconds),
      memoryMb: c.memoryMb,
      logRetentionDays: c.logRetentionDays,
      bundleAwsSdk: c.bundleAwsSdk,
      codeSigningConfig: props.codeSigningConfig,
      environment: props.environment,
    });
    // Grants ReceiveMessage/DeleteMessage/ChangeMessageVisibility/GetQueueAttributes on the ledger queue only.
    this.function.fn.addEventSource(
      new SqsEventSource(props.ledgerQueue, {
        batchSize: c.batchSize,
        // One batch per message group (log) at a time: never more writers of a log than one (ADR 0270).
        maxConcurrency: c.maximumConcurrency,
        // An empty batchItemFailures list means every record succeeded; on FIFO the handler reports the first
        // failed record and every later one (core/pipeline/batch.ts).
        reportBatchItemFailures: true,
      }),
    );
  }

  get fn(): lambda.Function {
    return this.function.fn;
  }
}
