/**
 * The whole Docket pipeline in one stack, one construct per concern (docs/deploy.md). Everything it names comes
 * from infra/names.ts and everything it tunes from infra/config.ts; no account or region appears here.
 */
import { denySendsToDeadLetterQueue } from './constructs/dead-letter-senders.js';
import { CfnOutput, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { DocketConfig } from './config.js';
import { Alarms } from './constructs/alarms.js';
import { AuditAccess } from './constructs/audit-access.js';
import { CheckpointKey } from './constructs/checkpoint-key.js';
import { Checkpoints } from './constructs/checkpoints.js';
import { CodeSigning } from './constructs/code-signing.js';
import { DataKey } from './constructs/data-key.js';
import { Deliverer } from './constructs/deliverer.js';
import { Evaluator } from './constructs/evaluator.js';
import { Intake } from './constructs/intake.js';
import { Ledger } from './constructs/ledger.js';
import { Registry } from './constructs/registry.js';
import { RequestArchive } from './constructs/request-archive.js';
import { Results } from './constructs/results.js';
import { Routes } from './constructs/routes.js';
import { Sequencer } from './constructs/sequencer.js';
import { SigningKey } from './constructs/signing-key.js';
import {
  checkpointEnvironment,
  deliverEnvironment,
  evaluateEnvironment,
  sequenceEnvironment,
} from './function-environment.js';
import { resourceNames, routeOutputId, type ResourceNames } from './names.js';

export interface DocketStackProps extends StackProps {
  readonly config: DocketConfig;
}

export class DocketStack extends Stack {
  readonly config: DocketConfig;
  readonly names: ResourceNames;
  readonly dataKey: DataKey;
  readonly intake: Intake;
  readonly routes: Routes;
  readonly ledger: Ledger;
  readonly registry: Registry;
  readonly requestArchive: RequestArchive;
  readonly signingKey: SigningKey;
  readonly checkpointKey: CheckpointKey;
  readonly codeSigning: CodeSigning;
  readonly evaluator: Evaluator;
  readonly sequencer: Sequencer;
  readonly deliverer: Deliverer;
  readonly results: Results;
  readonly checkpoints: Checkpoints;
  readonly alarms: Alarms;
  readonly auditAccess: AuditAccess;

  constructor(scope: Construct, id: string, props: DocketStackProps) {
    super(scope, id, props);
    const config = props.config;
    const names = resourceNames(config.stage, config);
    this.config = config;
    this.names = names;
    Tags.of(this).add('project', 'docket');
    Tags.of(this).add('docket:stage', config.stage);

    this.dataKey = new DataKey(this, 'DataKey', { prefix: names.prefix });
    const key = this.dataKey.key;
    this.intake = new Intake(this, 'Intake', { config, names: names.intake });
    this.routes = new Routes(this, 'Routes', { config, names });
    this.ledger = new Ledger(this, 'Ledger', { config, tableName: names.ledgerTable, key });
    this.registry = new Registry(this, 'Registry', { config, tableName: names.packsTable, key });
    this.requestArchive = new RequestArchive(this, 'RequestArchive', { config, tableName: names.requestsTable, key });
    this.signingKey = new SigningKey(this, 'SigningKey', {
      secretName: names.signingSecret,
      key,
      trustPolicyParameterName: names.trustPolicyParameter,
      ...(config.trustPolicy !== undefined ? { trustPolicy: config.trustPolicy } : {}),
    });

    this.checkpointKey = new CheckpointKey(this, 'CheckpointKey', { prefix: names.prefix });
    this.codeSigning = new CodeSigning(this, 'CodeSigning', { prefix: names.prefix });

    this.sequencer = new Sequencer(this, 'Sequencer', {
      config,
      functionName: names.sequenceFunction,
      names: names.ledgerQueue,
      intake: this.intake.queue,
      environment: (ledgerQueueUrl) =>
        sequenceEnvironment({
          config,
          names,
          queueUrl: (n) => {
            if (n !== names.ledgerQueue.queue) throw new Error(`the sequence function sends to no queue named ${n}`);
            return ledgerQueueUrl;
          },
        }),
      codeSigningConfig: this.codeSigning.config,
    });
    const resultsTopicName = names.resultsTopic;
    this.results = new Results(this, 'Results', {
      prefix: names.prefix,
      topicName: resultsTopicName,
      waitQueuePrefix: names.waitQueuePrefix,
    });
    const resultsTopicArn = this.results.topic.topicArn;
    const routeUrl = (name: string): string => {
      for (const p of [this.intake.queues, this.sequencer, ...this.routes.handoffQueues()]) {
        if (p.names.queue === name) return p.queue.queueUrl;
        if (p.names.dlq === name) return p.dlq.queueUrl;
      }
      throw new Error(`no queue named ${name}`);
    };
    this.deliverer = new Deliverer(this, 'Deliverer', {
      config,
      functionName: names.deliverFunction,
      names: names.deliveryQueue,
      environment: (queueUrl, dlqUrl) =>
        deliverEnvironment({
          config,
          names,
          resultsTopicArn,
          queueUrl: (n) =>
            n === names.deliveryQueue.queue ? queueUrl : n === names.deliveryQueue.dlq ? dlqUrl : routeUrl(n),
        }),
      codeSigningConfig: this.codeSigning.config,
    });
    const queueUrl = (name: string): string => {
      for (const p of [this.intake.queues, this.sequencer, this.deliverer, ...this.routes.handoffQueues()]) {
        if (p.names.queue === name) return p.queue.queueUrl;
        if (p.names.dlq === name) return p.dlq.queueUrl;
      }
      throw new Error(`no queue named ${name}`);
    };
    const signingSecretArn = this.signingKey.secret.secretArn;
    this.evaluator = new Evaluator(this, 'Evaluator', {
      config,
      functionName: names.evaluateFunction,
      ledgerQueue: this.sequencer.queue,
      environment: evaluateEnvironment({ config, names, queueUrl, signingSecretArn }),
      codeSigningConfig: this.codeSigning.config,
    });
    this.checkpoints = new Checkpoints(this, 'Checkpoints', {
      config,
      functionName: names.checkpointFunction,
      key,
      environment: (exportBucket) =>
        checkpointEnvironment({ config, names, checkpointKeyArn: this.checkpointKey.key.keyArn, exportBucket }),
      codeSigningConfig: this.codeSigning.config,
    });

    // Least privilege, one grant per need (docs/adr/0080-ledger-append-only-enforcement.md).
    const evaluateRole = this.evaluator.function.role;
    const checkpointRole = this.checkpoints.function.role;
    const deliverRole = this.deliverer.function.role;
    this.ledger.grantAppend(evaluateRole);
    this.registry.grantRead(evaluateRole);
    this.requestArchive.grantArchive(evaluateRole);
    // The delivery stage (ADR 0404): evaluate sends one job per log per batch; only the deliver function reads the
    // entries back, places them, sends the handoffs and publishes the notifications.
    this.deliverer.queue.grantSendMessages(evaluateRole);
    this.deliverer.restrictSenders(evaluateRole);
    this.deliverer.restrictConsumers();
    this.ledger.grantPlace(deliverRole);
    this.registry.grantRead(deliverRole);
    this.routes.grantSend(deliverRole);
    this.routes.restrictSenders(deliverRole);
    // A request without a usable id is dead-lettered by the handler itself, with its reason (ADR 0071); nobody else
    // may send to the intake DLQ, and nobody at all to the ledger queue's DLQ: only SQS's redrive (ADR 0455).
    this.intake.dlq.grantSendMessages(evaluateRole);
    denySendsToDeadLetterQueue(this.intake.dlq, 'DenySendExceptEvaluate', [evaluateRole]);
    denySendsToDeadLetterQueue(this.sequencer.dlq, 'DenySendToEveryone');
    // A redelivery whose claim fixes another log goes on to that log's group (ADR 0270); nobody else sends there.
    this.sequencer.queue.grantSendMessages(evaluateRole);
    this.sequencer.restrictSenders([this.sequencer.function.role, evaluateRole]);
    // Every appended entry is published to the results topic by the stage; nobody else may publish there.
    this.results.grantPublishOnly(deliverRole);
    this.signingKey.grantSign(evaluateRole);
    this.ledger.grantCheckpoint(checkpointRole);
    // Separate custody (ADR 0120): the checkpoint role signs with the KMS checkpoint key and cannot read the entry key;
    // the evaluate role cannot use the checkpoint key.
    this.checkpointKey.grantSign(checkpointRole);
    this.checkpointKey.seal();
    this.signingKey.grantReadTrustPolicy(checkpointRole);
    this.signingKey.seal();
    this.ledger.restrictWriters({ appender: evaluateRole, checkpointer: checkpointRole, placer: deliverRole });

    this.auditAccess = new AuditAccess(this, 'AuditAccess', {
      policyName: `${names.prefix}-auditor`,
      tables: [this.ledger.table, this.registry.table, this.requestArchive.table],
      exportBucket: this.checkpoints.bucket,
      trustPolicyParameterName: names.trustPolicyParameter,
      key,
    });

    this.alarms = new Alarms(this, 'Alarms', {
      prefix: names.prefix,
      thresholds: config.alarms,
      ...(config.alarmEmail !== undefined ? { alarmEmail: config.alarmEmail } : {}),
      dlqs: [
        { label: 'intake', queue: this.intake.dlq },
        { label: 'ledger-queue', queue: this.sequencer.dlq },
        { label: 'delivery', queue: this.deliverer.dlq },
        { label: 'unrouted', queue: this.routes.unrouted.dlq },
        ...[...this.routes.routes.entries()].map(([k, q]) => ({ label: `route-${k}`, queue: q.dlq })),
      ],
      functions: [
        { label: 'evaluate', fn: this.evaluator.fn },
        { label: 'checkpoint', fn: this.checkpoints.fn },
        { label: 'sequence', fn: this.sequencer.fn },
        { label: 'deliver', fn: this.deliverer.fn },
      ],
      deliveryQueue: this.deliverer.queue,
      deliveryJobsRefused: true,
      intake: this.intake.queue,
      ledgerQueue: this.sequencer.queue,
      headRegression: true,
      topics: [{ label: 'results', topic: this.results.topic }],
      checkpointRefusals: true,
      throttled: { evaluate: this.evaluator.fn, ledger: this.ledger.table },
    });

    this.outputs();
  }

  private outputs(): void {
    const out = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    out('IntakeQueueUrl', this.intake.queue.queueUrl, 'Requesters send evaluation requests here');
    out('IntakeDlqUrl', this.intake.dlq.queueUrl, 'Requests without a usable id, or failing maxReceiveCount times');
    out(
      'UnroutedQueueUrl',
      this.routes.unrouted.queue.queueUrl,
      'Direct exception escalations with no escalation object',
    );
    for (const [key, q] of this.routes.routes) {
      out(routeOutputId(key), q.queue.queueUrl, `Handoffs for route queue "${key}"`);
    }
    out('LedgerTableName', this.ledger.table.tableName, 'Append-only ledger (entries, claims, positions, checkpoints)');
    out('PacksTableName', this.registry.table.tableName, 'Pack registry (bytes by digest, aliases)');
    out('RequestsTableName', this.requestArchive.table.tableName, 'Request archive (exact request bytes by digest)');
    out(
      'CheckpointExportBucket',
      this.checkpoints.bucket.bucketName,
      'Object Lock (compliance) bucket of exported checkpoints',
    );
    out('ResultsTopicArn', this.results.topic.topicArn, 'Subscribe an SQS queue (with a filter policy) for results');
    out(
      'ResultsWaiterPolicyArn',
      this.results.waiterPolicy.managedPolicyArn,
      'Attach to requesters who run docket submit --wait',
    );
    out('AlarmTopicArn', this.alarms.topic.topicArn, 'Subscribe on-call here');
    out(
      'PackPublisherPolicyArn',
      this.registry.publisherPolicy.managedPolicyArn,
      'Attach to whoever runs `docket publish`',
    );
    out(
      'RequesterPolicyArn',
      this.intake.requesterPolicy.managedPolicyArn,
      'Attach to requesters: send to the intake queue',
    );
    out(
      'AuditorPolicyArn',
      this.auditAccess.policy.managedPolicyArn,
      'Attach to auditors: read-only ledger, registry, archive, checkpoints, trust policy',
    );
    out('RequestPurgeRoleArn', this.requestArchive.purgeRole.roleArn, 'Assume to purge archived request bytes');
  }
}
