/**
 * The evaluate function behind the intake queue (docs/pipeline.md, docs/deploy.md): SQS event source with partial
 * batch responses, batch size / batching window / maximum concurrency from configuration.
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
  readonly intake: sqs.IQueue;
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
        'Docket: evaluate requests from the intake queue, append one signed ledger entry each, fan out handoffs',
      timeout: Duration.seconds(c.functionTimeoutSeconds),
      memoryMb: c.memoryMb,
      logRetentionDays: c.logRetentionDays,
      bundleAwsSdk: c.bundleAwsSdk,
      codeSigningConfig: props.codeSigningConfig,
      environment: props.environment,
    });
    // Grants ReceiveMessage/DeleteMessage/ChangeMessageVisibility/GetQueueAttributes on the intake queue only.
    this.function.fn.addEventSource(
      new SqsEventSource(props.intake, {
        batchSize: c.batchSize,
        ...(c.maxBatchingWindowSeconds > 0 ? { maxBatchingWindow: Duration.seconds(c.maxBatchingWindowSeconds) } : {}),
        maxConcurrency: c.maximumConcurrency,
        // An empty batchItemFailures list means every record succeeded; one bad record never fails its neighbours.
        reportBatchItemFailures: true,
      }),
    );
  }

  get fn(): lambda.Function {
    return this.function.fn;
  }
}
