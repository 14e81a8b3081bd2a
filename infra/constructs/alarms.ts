/**
 * CloudWatch alarms to one SNS topic (docs/deploy.md): depth of every DLQ, errors of every function, age of the
 * oldest intake message, failed deliveries of the results topic. Missing data is not breaching: an idle pipeline is healthy.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AlarmThresholds } from '../config.js';

export interface AlarmsProps {
  readonly prefix: string;
  readonly thresholds: AlarmThresholds;
  readonly alarmEmail?: string;
  readonly dlqs: ReadonlyArray<{ readonly label: string; readonly queue: sqs.IQueue }>;
  readonly functions: ReadonlyArray<{ readonly label: string; readonly fn: lambda.IFunction }>;
  readonly intake: sqs.IQueue;
  /** The evaluate function's rejects queue (ADR 0492): its first message is a request the ledger could not record. */
  readonly rejects: sqs.IQueue;
  /** The FIFO ledger queue: an old message there is a stalled message group, i.e. a log nobody writes. */
  readonly ledgerQueue: sqs.IQueue;
  /** The delivery queue: an old job there means handoffs and notifications are late (docs/adr/0404-delivery-stage.md). */
  readonly deliveryQueue: sqs.IQueue;
  /** Topics whose deliveries to subscribers must not fail (SNS NumberOfNotificationsFailed). */
  readonly topics: ReadonlyArray<{ readonly label: string; readonly topic: sns.ITopic }>;
  /** Throttling here means requests wait (SQS retries them): the signal to raise maximumConcurrency or logCount. */
  readonly throttled: { readonly evaluate: lambda.IFunction; readonly ledger: dynamodb.ITable };
}

export class Alarms extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const t = props.thresholds;
    // A key of its own: CloudWatch must be allowed to use it, and that grant does not belong on the data key.
    const key = new kms.Key(this, 'TopicKey', {
      alias: `alias/${props.prefix}-alarms`,
      description: `Docket ${props.prefix}: alarm topic encryption`,
      enableKeyRotation: true,
    });
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowCloudWatchAlarmsToPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', {
      topicName: `${props.prefix}-alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail !== undefined)
      this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    const period = Duration.seconds(t.periodSeconds);
    const add = (id: string, metric: cloudwatch.IMetric, threshold: number, description: string) => {
      const alarm = new cloudwatch.Alarm(this, id, {
        alarmName: `${props.prefix}-${id}`,
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: t.evaluationPeriods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(new actions.SnsAction(this.topic));
      alarm.addOkAction(new actions.SnsAction(this.topic));
      this.alarms.push(alarm);
    };
    // A metric a Docket function publishes itself (namespace Docket, dimension service): one event is one too many.
    const docket = (id: string, metricName: string, service: string, statistic: string, description: string) =>
      add(
        id,
        new cloudwatch.Metric({ namespace: 'Docket', metricName, dimensionsMap: { service }, period, statistic }),
        1,
        description,
      );
    const oldest = (id: string, queue: sqs.IQueue, description: string) =>
      add(
        id,
        queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
        t.intakeAgeOfOldestMessageSeconds,
        description,
      );
    for (const d of props.dlqs) {
      add(
        `${d.label}-dlq-depth`,
        d.queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
        t.dlqDepth,
        `Messages are dead-lettered in ${d.label}: inspect and redrive`,
      );
    }
    add(
      'rejects-depth',
      props.rejects.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      t.dlqDepth,
      'The evaluate function rejected requests it could not record (no usable id, or an id recorded for other bytes): read their DocketReason on the rejects queue',
    );
    for (const f of props.functions) {
      add(
        `${f.label}-errors`,
        f.fn.metricErrors({ period, statistic: 'Sum' }),
        t.functionErrors,
        `The ${f.label} function reported errors`,
      );
    }
    for (const tp of props.topics) {
      add(
        `${tp.label}-failed-deliveries`,
        tp.topic.metricNumberOfNotificationsFailed({ period, statistic: 'Sum' }),
        1,
        `Deliveries from the ${tp.label} topic to subscribers failed (after SNS's retries): check the subscribed queues' policies and keys`,
      );
    }
    // functions/checkpoint.ts publishes CheckpointRefusals on every run.
    docket(
      'checkpoint-refusals',
      'CheckpointRefusals',
      'docket-checkpoint',
      'Maximum',
      'The checkpoint writer refused to sign a log: an entry it would cover fails verification (see its ERROR log line and run docket verify)',
    );
    add(
      'evaluate-throttles',
      props.throttled.evaluate.metricThrottles({ period, statistic: 'Sum' }),
      t.throttles,
      'The evaluate function is throttled: check account concurrency and maximumConcurrency',
    );
    add(
      'ledger-write-throttles',
      new cloudwatch.Metric({
        namespace: 'AWS/DynamoDB',
        metricName: 'WriteThrottleEvents',
        dimensionsMap: { TableName: props.throttled.ledger.tableName },
        period,
        statistic: 'Sum',
      }),
      t.throttles,
      'Ledger writes are throttled: one log (one partition) tops out at a few hundred appends/s; raise logCount',
    );
    oldest(
      'ledger-queue-age-of-oldest-message',
      props.ledgerQueue,
      'A message group of the FIFO ledger queue is stalled: its log is not being written (a record failing again ' +
        'and again, e.g. a head regression, holds back every later request of that log until it is dead-lettered)',
    );
    oldest(
      'delivery-queue-age-of-oldest-message',
      props.deliveryQueue,
      'Delivery jobs wait: recorded entries are not yet placed, handed off or notified (the deliver function is ' +
        'failing, throttled or under-provisioned: see deliverMaximumConcurrency)',
    );
    // functions/lib/deliver-observability.ts: a job the evaluate function did not write.
    docket(
      'delivery-jobs-refused',
      'DeliveryJobsRefused',
      'docket-deliver',
      'Sum',
      'The deliver function refused a job that is not one or names no recorded entry: only a writer of the ' +
        'delivery queue other than the evaluate function makes one. See the delivery DLQ and its DocketReason',
    );
    // functions/lib/observability.ts: a log's head moved below a written seq.
    docket(
      'ledger-head-regressed',
      'LedgerHeadRegressed',
      'docket-evaluate',
      'Sum',
      'A ledger log head moved below a sequence number the writer had written: only a deletion does that. The ' +
        'writer refuses that log; see the ERROR line "ledger head regressed" and run docket verify',
    );
    oldest(
      'intake-age-of-oldest-message',
      props.intake,
      'Requests wait too long on the intake queue: the evaluator is failing, throttled or under-provisioned',
    );
  }
}
