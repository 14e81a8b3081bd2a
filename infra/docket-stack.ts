/**
 * The repository's deployable stack (`cdk deploy`, infra/app.ts): one DocketPipeline and the stack's outputs. The
 * pipeline's construct id is "Default", which CDK leaves out of logical ids, so every resource keeps the logical id
 * it had when the stack built its constructs itself: a deployed stage updates in place, never replaces a table
 * (docs/adr/0445-docket-pipeline-construct.md).
 */
import { CfnOutput, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { DocketConfig } from './config.js';
import { DocketPipeline } from './docket-pipeline.js';
import { routeOutputId } from './output-ids.js';

export interface DocketStackProps extends StackProps {
  readonly config: DocketConfig;
}

/** CDK drops this construct id from logical ids (and from unique names); the pipeline's resources keep theirs. */
export const PIPELINE_ID_IN_STACK = 'Default';

export class DocketStack extends Stack {
  readonly pipeline: DocketPipeline;

  constructor(scope: Construct, id: string, props: DocketStackProps) {
    super(scope, id, props);
    // The stack's own tags (CloudFormation applies them to every resource, the stack included); the pipeline tags
    // its resources with the same values.
    Tags.of(this).add('project', 'docket');
    Tags.of(this).add('docket:stage', props.config.stage);
    this.pipeline = new DocketPipeline(this, PIPELINE_ID_IN_STACK, props.config);
    this.outputs();
  }

  private outputs(): void {
    const p = this.pipeline;
    const out = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    out('IntakeQueueUrl', p.intake.queue.queueUrl, 'Requesters send evaluation requests here');
    out('IntakeDlqUrl', p.intake.dlq.queueUrl, 'Requests SQS redrove after maxReceiveCount failed receives');
    out('RejectsQueueUrl', p.rejects.queue.queueUrl, 'Requests the ledger could not record, with their DocketReason');
    out('UnroutedQueueUrl', p.routes.unrouted.queue.queueUrl, 'Direct exception escalations with no escalation object');
    for (const [key, q] of p.routes.routes) {
      out(routeOutputId(key), q.queue.queueUrl, `Handoffs for route queue "${key}"`);
    }
    out('LedgerTableName', p.ledger.table.tableName, 'Append-only ledger (entries, claims, positions, checkpoints)');
    out('PacksTableName', p.registry.table.tableName, 'Pack registry (bytes by digest, aliases)');
    out('RequestsTableName', p.requestArchive.table.tableName, 'Request archive (exact request bytes by digest)');
    out(
      'CheckpointExportBucket',
      p.checkpoints.bucket.bucketName,
      'Object Lock (compliance) bucket of exported checkpoints',
    );
    out('ResultsTopicArn', p.results.topic.topicArn, 'Subscribe an SQS queue (with a filter policy) for results');
    out(
      'ResultsWaiterPolicyArn',
      p.results.waiterPolicy.managedPolicyArn,
      'Attach to requesters who run docket submit --wait',
    );
    out('AlarmTopicArn', p.alarms.topic.topicArn, 'Subscribe on-call here');
    out(
      'PackPublisherPolicyArn',
      p.registry.publisherPolicy.managedPolicyArn,
      'Attach to whoever runs `docket publish`',
    );
    out(
      'RequesterPolicyArn',
      p.intake.requesterPolicy.managedPolicyArn,
      'Attach to requesters: send to the intake queue',
    );
    out(
      'AuditorPolicyArn',
      p.auditAccess.policy.managedPolicyArn,
      'Attach to auditors: read-only ledger, registry, archive, checkpoints, trust policy',
    );
    out('RequestPurgeRoleArn', p.requestArchive.purgeRole.roleArn, 'Assume to purge archived request bytes');
  }
}
