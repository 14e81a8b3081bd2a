/**
 * The whole Docket pipeline as one construct, for any stack: the repository's own DocketStack and a team's stack
 * that installs @docket/cdk (docs/deploy.md "Docket inside your own CDK app", docs/adr/0445-docket-pipeline-construct.md).
 * One construct per concern beneath it; everything it names comes from infra/names.ts and everything it tunes from
 * infra/config.ts, validated by resolveConfig exactly as `cdk deploy` from this repository validates cdk.json context.
 */
import { Duration, Tags } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { resolveConfig, type DocketConfig } from './config.js';
import { Alarms } from './constructs/alarms.js';
import { AuditAccess } from './constructs/audit-access.js';
import { CheckpointKey } from './constructs/checkpoint-key.js';
import { Checkpoints } from './constructs/checkpoints.js';
import { CodeSigning } from './constructs/code-signing.js';
import { Dashboard } from './constructs/dashboard.js';
import { DataKey } from './constructs/data-key.js';
import { denySendsToDeadLetterQueue } from './constructs/dead-letter-senders.js';
import { Deliverer } from './constructs/deliverer.js';
import { Evaluator } from './constructs/evaluator.js';
import { Intake, type QueueWithDlq } from './constructs/intake.js';
import { grantQueueCrossCheck } from './constructs/cross-check-readers.js';
import { Ledger } from './constructs/ledger.js';
import { Registry } from './constructs/registry.js';
import { Rejects } from './constructs/rejects.js';
import { RequestArchive } from './constructs/request-archive.js';
import { Results } from './constructs/results.js';
import { Routes } from './constructs/routes.js';
import { Sequencer } from './constructs/sequencer.js';
import { SigningKey } from './constructs/signing-key.js';
import { DOCKET_FEATURE_FLAGS } from './feature-flags.js';
import { attachManagedPolicy } from './docket-grants.js';
import { DocketPipelineError } from './docket-pipeline-error.js';
import {
  checkpointEnvironment,
  deliverEnvironment,
  evaluateEnvironment,
  sequenceEnvironment,
} from './function-environment.js';
import { resourceNames, type ResourceNames } from './names.js';

/**
 * The deployment configuration (infra/config.ts): any member may be left out and takes the stage's default. Validated
 * by resolveConfig; an undeployable value throws DocketConfigError (code "invalid-config") listing every problem.
 */
export type DocketPipelineProps = Partial<DocketConfig>;

export class DocketPipeline extends Construct {
  /** The resolved, validated configuration. */
  readonly config: DocketConfig;
  readonly names: ResourceNames;
  readonly dataKey: DataKey;
  readonly intake: Intake;
  /** The evaluate function's deliberate rejects, with their reasons (ADR 0492); operators and auditors read it. */
  readonly rejects: Rejects;
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
  readonly dashboard: Dashboard;
  readonly auditAccess: AuditAccess;

  constructor(scope: Construct, id: string, props: DocketPipelineProps = {}) {
    super(scope, id);
    // Before any child exists: context set later would not apply to it.
    for (const [flag, value] of Object.entries(DOCKET_FEATURE_FLAGS)) this.node.setContext(flag, value);
    const config = resolveConfig(props);
    const names = resourceNames(config.stage, config);
    this.config = config;
    this.names = names;
    Tags.of(this).add('project', 'docket');
    Tags.of(this).add('docket:stage', config.stage);

    this.dataKey = new DataKey(this, 'DataKey', { prefix: names.prefix });
    const key = this.dataKey.key;
    this.intake = new Intake(this, 'Intake', { config, names: names.intake });
    this.rejects = new Rejects(this, 'Rejects', {
      queueName: names.rejectsQueue,
      retention: Duration.seconds(config.dlqRetentionSeconds),
    });
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
    const queueUrl = (name: string): string => {
      if (name === names.rejectsQueue) return this.rejects.queue.queueUrl;
      // The deliverer last: it is not built yet while its own environment (which names its queues itself) is.
      for (const p of [this.intake.queues, this.sequencer, ...this.routes.handoffQueues(), this.deliverer]) {
        if (p === undefined) break;
        if (p.names.queue === name) return p.queue.queueUrl;
        if (p.names.dlq === name) return p.dlq.queueUrl;
      }
      throw new Error(`no queue named ${name}`);
    };
    this.deliverer = new Deliverer(this, 'Deliverer', {
      config,
      functionName: names.deliverFunction,
      names: names.deliveryQueue,
      environment: (ownUrl, dlqUrl) =>
        deliverEnvironment({
          config,
          names,
          resultsTopicArn,
          queueUrl: (n) =>
            n === names.deliveryQueue.queue ? ownUrl : n === names.deliveryQueue.dlq ? dlqUrl : queueUrl(n),
        }),
      codeSigningConfig: this.codeSigning.config,
    });
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
        checkpointEnvironment({
          config,
          names,
          checkpointKeyArn: this.checkpointKey.key.keyArn,
          exportBucket,
          queueUrl,
        }),
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
    // A request without a usable id, or whose id is recorded for other bytes, goes to the rejects queue with its
    // reason (ADR 0071, ADR 0492); the evaluate role may only send there. Nobody at all may send to either DLQ of the
    // request path: only SQS's redrive fills them (ADR 0455).
    this.rejects.grantSendOnly(evaluateRole);
    denySendsToDeadLetterQueue(this.intake.dlq);
    denySendsToDeadLetterQueue(this.sequencer.dlq);
    // A redelivery whose claim fixes another log goes on to that log's group (ADR 0270); nobody else sends there.
    this.sequencer.queue.grantSendMessages(evaluateRole);
    this.sequencer.restrictSenders([this.sequencer.function.role, evaluateRole]);
    // Every appended entry is published to the results topic by the stage; nobody else may publish there.
    this.results.grantPublishOnly(deliverRole);
    this.signingKey.grantSign(evaluateRole);
    this.ledger.grantCheckpoint(checkpointRole);
    // The archive cross-check before it signs (ADR 0457, ADR 0487): read, never consume or write.
    this.requestArchive.grantCrossCheck(checkpointRole);
    grantQueueCrossCheck(
      checkpointRole,
      [this.intake.queue, this.sequencer.queue],
      [this.intake.dlq, this.sequencer.dlq],
    );
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
      rejects: this.rejects,
    });

    const dlqs = [
      { label: 'intake', queue: this.intake.dlq },
      { label: 'ledger-queue', queue: this.sequencer.dlq },
      { label: 'delivery', queue: this.deliverer.dlq },
      { label: 'unrouted', queue: this.routes.unrouted.dlq },
      ...[...this.routes.routes.entries()].map(([k, q]) => ({ label: `route-${k}`, queue: q.dlq })),
    ];
    const functions = [
      { label: 'evaluate', fn: this.evaluator.fn },
      { label: 'checkpoint', fn: this.checkpoints.fn },
      { label: 'sequence', fn: this.sequencer.fn },
      { label: 'deliver', fn: this.deliverer.fn },
    ];
    this.alarms = new Alarms(this, 'Alarms', {
      prefix: names.prefix,
      thresholds: config.alarms,
      ...(config.alarmEmail !== undefined ? { alarmEmail: config.alarmEmail } : {}),
      dlqs,
      functions,
      deliveryQueue: this.deliverer.queue,
      intake: this.intake.queue,
      rejects: this.rejects.queue,
      ledgerQueue: this.sequencer.queue,
      topics: [{ label: 'results', topic: this.results.topic }],
      throttled: { evaluate: this.evaluator.fn, ledger: this.ledger.table },
    });
    // What the pipeline does, beside whether an alarm fired (docs/deploy.md "Observe it").
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: names.prefix,
      queues: [
        { label: 'intake', queue: this.intake.queue },
        { label: 'ledger-queue', queue: this.sequencer.queue },
        { label: 'delivery', queue: this.deliverer.queue },
        { label: 'rejects', queue: this.rejects.queue },
        { label: 'unrouted', queue: this.routes.unrouted.queue },
        ...[...this.routes.routes.entries()].map(([k, q]) => ({ label: `route-${k}`, queue: q.queue })),
      ],
      dlqs,
      functions,
      tables: [
        { label: 'ledger', table: this.ledger.table },
        { label: 'requests', table: this.requestArchive.table },
        { label: 'packs', table: this.registry.table },
      ],
    });
  }

  /** The queue requesters send evaluation requests to (docs/pipeline.md). */
  get intakeQueue(): sqs.IQueue {
    return this.intake.queue;
  }

  /**
   * The evaluate function's rejects (ADR 0492): a copy of each message with no usable request id, and of each request
   * whose id is recorded for other bytes, with its reason (`DocketReason`). It excuses no omission; only SQS's redrive
   * to a DLQ does (ADR 0455). `grantAudit` reads it.
   */
  get rejectsQueue(): sqs.IQueue {
    return this.rejects.queue;
  }

  /** The results topic: one docket.result/1 notification per appended entry (docs/pipeline.md "Result notifications"). */
  get resultsTopic(): sns.ITopic {
    return this.results.topic;
  }

  /** The handoff queue of a route queue key of `config.routes` (e.g. "review"); throws for a key not configured. */
  routeQueue(key: string): sqs.IQueue {
    return this.routeQueues(key).queue;
  }

  /** The route queue's dead-letter queue, where a consumer sends a handoff it refuses, with its reason. */
  routeDeadLetterQueue(key: string): sqs.IQueue {
    return this.routeQueues(key).dlq;
  }

  /**
   * Let `grantee` submit requests: attaches the requester policy (send to the intake queue, nothing else; ADR 0086)
   * and returns it. `grantee` must be (or act through) a role, a user or a group.
   */
  grantSubmit(grantee: iam.IGrantable): iam.IManagedPolicy {
    return attachManagedPolicy(this.intake.requesterPolicy, grantee, 'grantSubmit');
  }

  /**
   * Let `grantee` consume one route queue: attaches that queue's consumer policy (receive, change visibility, delete
   * and read attributes on the route queue; send to its DLQ, where refused handoffs go with their reason) and returns
   * it. Sending to the route queue stays denied to everyone but the deliver role (ADR 0142).
   */
  grantConsumeRoute(key: string, grantee: iam.IGrantable): iam.IManagedPolicy {
    const policy = this.routes.consumerPolicies.get(this.routeQueues(key));
    if (policy === undefined) throw new Error(`route queue ${key} has no consumer policy`);
    return attachManagedPolicy(policy, grantee, 'grantConsumeRoute');
  }

  /**
   * Let `grantee` audit: attaches the read-only auditor policy (ledger, registry, request archive, exported
   * checkpoints, trust policy, the rejects queue; not one write action) and returns it.
   */
  grantAudit(grantee: iam.IGrantable): iam.IManagedPolicy {
    return attachManagedPolicy(this.auditAccess.policy, grantee, 'grantAudit');
  }

  private routeQueues(key: string): QueueWithDlq {
    const q = this.routes.routes.get(key);
    if (q === undefined)
      throw new DocketPipelineError(
        'unknown-route-queue',
        `no route queue "${key}" in this pipeline's routes (configured: ${[...this.routes.routes.keys()].join(', ') || 'none'})`,
      );
    return q;
  }
}
