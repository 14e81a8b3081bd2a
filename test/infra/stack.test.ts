import { describe, expect, it } from 'vitest';
import { defaultConfig, routeTargetKey } from '../../infra/config.js';
import { ENV } from '../../infra/function-environment.js';
import { resourceNames } from '../../infra/names.js';
import { HANDOFF_MAX_BYTES } from '../../core/pipeline/handoff-message.js';
import {
  functionId,
  logicalIdWhere,
  only,
  queueId,
  resolve,
  resourcesOfType,
  roleOfFunction,
  tableId,
  template,
  type Cfn,
} from './template.js';

const names = resourceNames('dev', defaultConfig('dev'));
const props = (t: Cfn, id: string): Cfn => t.Resources[id].Properties;

describe('intake', () => {
  it('the intake queue is SSE-encrypted, TLS-only and dead-letters to its DLQ after maxReceiveCount deliveries', () => {
    const t = template({ maxReceiveCount: 7 });
    const intake = props(t, queueId(t, 'docket-dev-intake'));
    expect(intake.SqsManagedSseEnabled).toBe(true);
    expect(intake.RedrivePolicy.maxReceiveCount).toBe(7);
    expect(intake.RedrivePolicy.deadLetterTargetArn).toEqual({
      'Fn::GetAtt': [queueId(t, 'docket-dev-intake-dlq'), 'Arn'],
    });
    const policy = resourcesOfType(t, 'AWS::SQS::QueuePolicy').find(
      ([, r]) => r.Properties.Queues[0].Ref === queueId(t, 'docket-dev-intake'),
    );
    expect(JSON.stringify(policy?.[1].Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('the intake visibility timeout is six times the function timeout', () => {
    const t = template({ functionTimeoutSeconds: 45 });
    expect(props(t, queueId(t, 'docket-dev-intake')).VisibilityTimeout).toBe(270);
    expect(props(t, functionId(t, 'docket-dev-evaluate')).Timeout).toBe(45);
  });

  it('a dead letter is kept fourteen days by default, longer than any alarm takes to be answered', () => {
    const t = template();
    expect(props(t, queueId(t, 'docket-dev-intake-dlq')).MessageRetentionPeriod).toBe(1_209_600);
  });
});

describe('evaluate function', () => {
  it('runs nodejs24.x on arm64 with the configured memory and JSON logs in its own retained log group', () => {
    const t = template({ memoryMb: 1536, logRetentionDays: 90 });
    const fn = props(t, functionId(t, 'docket-dev-evaluate'));
    expect(fn.Runtime).toBe('nodejs24.x');
    expect(fn.Architectures).toEqual(['arm64']);
    expect(fn.MemorySize).toBe(1536);
    expect(fn.LoggingConfig.LogFormat).toBe('JSON');
    const logGroupId = fn.LoggingConfig.LogGroup.Ref as string;
    expect(t.Resources[logGroupId].Properties).toMatchObject({
      LogGroupName: '/aws/lambda/docket-dev-evaluate',
      RetentionInDays: 90,
    });
    expect(t.Resources[logGroupId].DeletionPolicy).toBe('Retain');
  });

  it('reads the FIFO ledger queue through an event source with partial batch responses, no batching window and one instance per log at most', () => {
    const t = template({ batchSize: 7, maxBatchingWindowSeconds: 5, logCount: 12, maximumConcurrency: 12 });
    const esms = resourcesOfType(t, 'AWS::Lambda::EventSourceMapping').map(([, r]) => r.Properties as Cfn);
    expect(esms).toHaveLength(3);
    const evaluate = esms.find((e) => JSON.stringify(e.FunctionName).includes(functionId(t, 'docket-dev-evaluate')));
    expect(evaluate).toMatchObject({
      BatchSize: 7,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 12 },
      EventSourceArn: { 'Fn::GetAtt': [queueId(t, 'docket-dev-ledger.fifo'), 'Arn'] },
    });
    expect(evaluate!.MaximumBatchingWindowInSeconds).toBeUndefined();
  });

  it('has the sequence function read the intake queue with the batching window and forward to the FIFO ledger queue', () => {
    const t = template({ batchSize: 10, maxBatchingWindowSeconds: 5, sequencerMaximumConcurrency: 30 });
    const esm = resourcesOfType(t, 'AWS::Lambda::EventSourceMapping')
      .map(([, r]) => r.Properties as Cfn)
      .find((e) => JSON.stringify(e.FunctionName).includes(functionId(t, 'docket-dev-sequence')));
    expect(esm).toMatchObject({
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 5,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 30 },
      EventSourceArn: { 'Fn::GetAtt': [queueId(t, 'docket-dev-intake'), 'Arn'] },
    });
    const env = props(t, functionId(t, 'docket-dev-sequence')).Environment.Variables as Cfn;
    expect(resolve(t, env[ENV.ledgerQueueUrl])).toBe('url:docket-dev-ledger.fifo');
    expect(JSON.parse(resolve(t, env[ENV.logIds]))).toEqual(['dev-0', 'dev-1', 'dev-2', 'dev-3']);
    expect(Object.keys(env).sort()).toEqual([ENV.ledgerQueueUrl, ENV.logIds, ENV.stage].sort());
  });

  it('makes the ledger queue a high-throughput FIFO queue (dedup and throughput per message group) with a FIFO DLQ', () => {
    const t = template();
    const q = props(t, queueId(t, 'docket-dev-ledger.fifo'));
    expect(q).toMatchObject({
      FifoQueue: true,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      ContentBasedDeduplication: false,
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 180,
    });
    expect(q.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [queueId(t, 'docket-dev-ledger-dlq.fifo'), 'Arn'] },
      maxReceiveCount: 5,
    });
    expect(props(t, queueId(t, 'docket-dev-ledger-dlq.fifo')).FifoQueue).toBe(true);
  });

  it('gets table names, the delivery queue, the secret ARN, budgets and log ids, and no route queue, unrouted queue or results topic', () => {
    const routes = [
      { kind: 'queue' as const, name: 'Review', queue: 'review' },
      { kind: 'human-role' as const, name: 'Oversight Board', queue: 'review' },
      { kind: 'system' as const, name: 'Tickets', queue: 'tickets' },
    ];
    const t = template({
      routes,
      logCount: 3,
      budgets: { defaultWorkUnits: 5000, maxWorkUnits: 9000 },
      supportedExtensions: ['x-geo'],
    });
    const env = props(t, functionId(t, 'docket-dev-evaluate')).Environment.Variables as Cfn;
    const value = (k: string) => resolve(t, env[k]);
    // Its configuration is what it uses: the handoffs' destinations are the deliver function's (ADR 0404).
    for (const k of [ENV.routeQueues, ENV.unroutedQueueUrl]) expect(Object.hasOwn(env, k), k).toBe(false);
    // Its rejects go to the rejects queue, never to a DLQ (ADR 0492).
    expect(value(ENV.rejectsQueueUrl)).toBe('url:docket-dev-rejects');
    expect(Object.hasOwn(env, ENV.intakeDlqUrl)).toBe(false);
    expect(value(ENV.ledgerQueueUrl)).toBe('url:docket-dev-ledger.fifo');
    // It sends one delivery job per log per batch; the deliver function publishes (docs/adr/0404-delivery-stage.md).
    expect(value(ENV.deliveryQueueUrl)).toBe('url:docket-dev-delivery');
    expect(Object.hasOwn(env, ENV.resultsTopicArn)).toBe(false);
    expect(Object.hasOwn(env, ENV.deliveryDlqUrl)).toBe(false);
    expect(value(ENV.ledgerTable)).toBe('docket-dev-ledger');
    expect(value(ENV.packsTable)).toBe('docket-dev-packs');
    expect(value(ENV.requestsTable)).toBe('docket-dev-requests');
    expect(value(ENV.signingSecretArn)).toBe(`ref:${logicalIdWhere(t, 'AWS::SecretsManager::Secret', () => true)}`);
    expect(value(ENV.defaultWorkBudget)).toBe('5000');
    expect(value(ENV.maxWorkBudget)).toBe('9000');
    expect(JSON.parse(value(ENV.logIds))).toEqual(['dev-0', 'dev-1', 'dev-2']);
    expect(JSON.parse(value(ENV.supportedExtensions))).toEqual(['x-geo']);
  });
});

describe('deliver function (docs/adr/0404-delivery-stage.md)', () => {
  const esmOf = (t: Cfn, fn: string): Cfn | undefined =>
    resourcesOfType(t, 'AWS::Lambda::EventSourceMapping')
      .map(([, r]) => r.Properties as Cfn)
      .find((e) => JSON.stringify(e.FunctionName).includes(functionId(t, fn)));

  it('reads the delivery queue through an event source with partial batch responses, the configured batch size and deliverMaximumConcurrency', () => {
    const t = template({ batchSize: 7, logCount: 12, maximumConcurrency: 12, deliverMaximumConcurrency: 40 });
    expect(esmOf(t, 'docket-dev-deliver')).toMatchObject({
      BatchSize: 7,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 40 },
      EventSourceArn: { 'Fn::GetAtt': [queueId(t, 'docket-dev-delivery'), 'Arn'] },
    });
    // Unless a stage sets it, its concurrency follows the evaluate function's, and never drops below ten.
    expect(esmOf(template({ logCount: 12 }), 'docket-dev-deliver')!.ScalingConfig).toEqual({ MaximumConcurrency: 12 });
    expect(esmOf(template(), 'docket-dev-deliver')!.ScalingConfig).toEqual({ MaximumConcurrency: 10 });
  });

  it('runs nodejs24.x on arm64 with deliverMemoryMb, the function timeout and JSON logs in its own retained log group', () => {
    const t = template({ deliverMemoryMb: 768, functionTimeoutSeconds: 45, logRetentionDays: 90 });
    const fn = props(t, functionId(t, 'docket-dev-deliver'));
    expect(fn).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], MemorySize: 768, Timeout: 45 });
    expect(fn.LoggingConfig.LogFormat).toBe('JSON');
    const logGroupId = fn.LoggingConfig.LogGroup.Ref as string;
    expect(t.Resources[logGroupId].Properties).toMatchObject({
      LogGroupName: '/aws/lambda/docket-dev-deliver',
      RetentionInDays: 90,
    });
    expect(t.Resources[logGroupId].DeletionPolicy).toBe('Retain');
    expect(props(t, functionId(t, 'docket-dev-evaluate')).MemorySize).toBe(1024);
  });

  it('makes the delivery queue a standard, SSE-encrypted, TLS-only queue that dead-letters to its DLQ after maxReceiveCount deliveries', () => {
    const t = template({ maxReceiveCount: 7, functionTimeoutSeconds: 45 });
    const q = props(t, queueId(t, 'docket-dev-delivery'));
    expect(q.FifoQueue).toBeUndefined();
    expect(q.SqsManagedSseEnabled).toBe(true);
    // Six times the deliver function's timeout (AWS guidance for SQS event sources).
    expect(q.VisibilityTimeout).toBe(270);
    expect(q.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [queueId(t, 'docket-dev-delivery-dlq'), 'Arn'] },
      maxReceiveCount: 7,
    });
    const dlq = props(t, queueId(t, 'docket-dev-delivery-dlq'));
    expect(dlq.SqsManagedSseEnabled).toBe(true);
    expect(dlq.MessageRetentionPeriod).toBe(1_209_600);
    for (const name of ['docket-dev-delivery', 'docket-dev-delivery-dlq']) {
      const policy = resourcesOfType(t, 'AWS::SQS::QueuePolicy').find(
        ([, r]) => r.Properties.Queues[0].Ref === queueId(t, name),
      );
      expect(JSON.stringify(policy?.[1].Properties.PolicyDocument), name).toContain('"aws:SecureTransport":"false"');
    }
  });

  it('denies SendMessage on the delivery queue to every principal but the evaluate role, in the queue policy', () => {
    const t = template();
    const policy = resourcesOfType(t, 'AWS::SQS::QueuePolicy').find(
      ([, r]) => r.Properties.Queues[0].Ref === queueId(t, 'docket-dev-delivery'),
    );
    const deny = (policy?.[1].Properties.PolicyDocument.Statement as Cfn[]).find(
      (st) => st.Sid === 'DenySendExceptEvaluateRole',
    );
    expect(deny).toMatchObject({
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 'sqs:SendMessage',
      Condition: {
        ArnNotEquals: { 'aws:PrincipalArn': { 'Fn::GetAtt': [roleOfFunction(t, 'docket-dev-evaluate'), 'Arn'] } },
      },
    });
  });

  it('gets the ledger and registry tables, the route queues, the unrouted queue, the results topic and its own DLQ, and no key', () => {
    const routes = [
      { kind: 'queue' as const, name: 'Review', queue: 'review' },
      { kind: 'system' as const, name: 'Tickets', queue: 'tickets' },
    ];
    const t = template({ routes, draftFeatures: ['rfc0008-quantifiers'] });
    const env = props(t, functionId(t, 'docket-dev-deliver')).Environment.Variables as Cfn;
    const value = (k: string) => resolve(t, env[k]);
    expect(Object.keys(env).sort()).toEqual(
      [
        ENV.stage,
        ENV.ledgerTable,
        ENV.packsTable,
        ENV.routeQueues,
        ENV.unroutedQueueUrl,
        ENV.draftFeatures,
        ENV.resultsTopicArn,
        ENV.deliveryDlqUrl,
      ].sort(),
    );
    expect(value(ENV.stage)).toBe('dev');
    expect(value(ENV.ledgerTable)).toBe('docket-dev-ledger');
    expect(value(ENV.packsTable)).toBe('docket-dev-packs');
    expect(JSON.parse(value(ENV.routeQueues))).toEqual({
      [routeTargetKey(routes[0]!)]: 'url:docket-dev-route-review',
      [routeTargetKey(routes[1]!)]: 'url:docket-dev-route-tickets',
    });
    expect(value(ENV.unroutedQueueUrl)).toBe('url:docket-dev-unrouted');
    // The same draft features the evaluate function records entries under.
    const evaluateEnv = props(t, functionId(t, 'docket-dev-evaluate')).Environment.Variables as Cfn;
    expect(resolve(t, evaluateEnv[ENV.draftFeatures])).toBe(value(ENV.draftFeatures));
    const [topicId] = resourcesOfType(t, 'AWS::SNS::Topic').find(
      ([, r]) => r.Properties.TopicName === 'docket-dev-results',
    )!;
    expect(value(ENV.resultsTopicArn)).toBe(`ref:${topicId}`);
    expect(value(ENV.deliveryDlqUrl)).toBe('url:docket-dev-delivery-dlq');
  });
});

describe('ledger table', () => {
  it('is on-demand with pk S / sk N, point-in-time recovery, deletion protection and a customer-managed KMS key with rotation', () => {
    const t = template({ pitrRecoveryDays: 21 });
    const id = tableId(t, names.ledgerTable);
    const p = props(t, id);
    expect(p.BillingMode).toBe('PAY_PER_REQUEST');
    expect(p.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(p.AttributeDefinitions).toEqual([
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'N' },
    ]);
    expect(p.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 21 });
    expect(p.DeletionProtectionEnabled).toBe(true);
    expect(p.SSESpecification).toMatchObject({ SSEEnabled: true, SSEType: 'KMS' });
    const keyId = p.SSESpecification.KMSMasterKeyId['Fn::GetAtt'][0] as string;
    expect(t.Resources[keyId].Type).toBe('AWS::KMS::Key');
    expect(t.Resources[keyId].Properties.EnableKeyRotation).toBe(true);
    expect(t.Resources[keyId].DeletionPolicy).toBe('Retain');
  });

  it('is retained when the stack is deleted and when CloudFormation would replace it', () => {
    const t = template();
    for (const name of [names.ledgerTable, names.packsTable, names.requestsTable]) {
      const r = t.Resources[tableId(t, name)];
      expect(r.DeletionPolicy, name).toBe('Retain');
      expect(r.UpdateReplacePolicy, name).toBe('Retain');
    }
  });

  it('never has TTL enabled, even when the request archive is given a TTL attribute', () => {
    const t = template({ requestArchiveTtlAttribute: 'expiresAt' });
    expect(props(t, tableId(t, names.ledgerTable)).TimeToLiveSpecification).toBeUndefined();
    expect(props(t, tableId(t, names.requestsTable)).TimeToLiveSpecification).toEqual({
      AttributeName: 'expiresAt',
      Enabled: true,
    });
    expect(props(t, tableId(t, names.packsTable)).TimeToLiveSpecification).toBeUndefined();
  });

  it('has no index or stream a writer could use to bypass the single-item append protocol', () => {
    const p = props(template(), tableId(template(), names.ledgerTable));
    expect(p.GlobalSecondaryIndexes).toBeUndefined();
    expect(p.StreamSpecification).toBeUndefined();
  });
});

describe('pack registry and request archive', () => {
  it('both key items by pk S / sk S on demand, with point-in-time recovery, deletion protection and the data key', () => {
    const t = template();
    const ledgerKey = props(t, tableId(t, names.ledgerTable)).SSESpecification.KMSMasterKeyId;
    for (const name of [names.packsTable, names.requestsTable]) {
      const p = props(t, tableId(t, name));
      expect(p.AttributeDefinitions).toEqual([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ]);
      expect(p.BillingMode).toBe('PAY_PER_REQUEST');
      expect(p.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled).toBe(true);
      expect(p.DeletionProtectionEnabled).toBe(true);
      expect(p.SSESpecification.KMSMasterKeyId).toEqual(ledgerKey);
    }
  });
});

describe('handoff routes', () => {
  it('give every distinct route queue key one queue and one DLQ, plus the unrouted pair, beside the intake, ledger and delivery pairs, and nothing else', () => {
    const routes = [
      { kind: 'queue' as const, name: 'Review', queue: 'review' },
      { kind: 'human-role' as const, name: 'Oversight', queue: 'review' },
      { kind: 'system' as const, name: 'Case Management', queue: 'case-mgmt' },
    ];
    const t = template({ routes });
    const queueNames = resourcesOfType(t, 'AWS::SQS::Queue')
      .map(([, r]) => r.Properties.QueueName as string)
      .sort();
    expect(queueNames).toEqual(
      [
        'docket-dev-delivery',
        'docket-dev-delivery-dlq',
        'docket-dev-intake',
        'docket-dev-intake-dlq',
        'docket-dev-ledger-dlq.fifo',
        'docket-dev-ledger.fifo',
        'docket-dev-rejects',
        'docket-dev-route-case-mgmt',
        'docket-dev-route-case-mgmt-dlq',
        'docket-dev-route-review',
        'docket-dev-route-review-dlq',
        'docket-dev-unrouted',
        'docket-dev-unrouted-dlq',
      ].sort(),
    );
    for (const q of ['docket-dev-route-review', 'docket-dev-route-case-mgmt', 'docket-dev-unrouted']) {
      expect(props(t, queueId(t, q)).RedrivePolicy.deadLetterTargetArn).toEqual({
        'Fn::GetAtt': [queueId(t, `${q}-dlq`), 'Arn'],
      });
    }
  });

  it('let every handoff queue and its DLQ take SQS’s largest message, which the largest handoff fits', () => {
    const t = template();
    for (const q of ['docket-dev-route-review', 'docket-dev-route-oversight', 'docket-dev-unrouted']) {
      expect(props(t, queueId(t, q)).MaximumMessageSize, q).toBe(1_048_576);
      expect(props(t, queueId(t, `${q}-dlq`)).MaximumMessageSize, `${q}-dlq`).toBe(1_048_576);
    }
    expect(HANDOFF_MAX_BYTES).toBe(1_048_576);
  });

  it('deny SendMessage on every handoff queue to every principal but the deliver role, in the queue policy', () => {
    const t = template();
    const deliverRole = roleOfFunction(t, 'docket-dev-deliver');
    for (const q of ['docket-dev-route-review', 'docket-dev-route-oversight', 'docket-dev-unrouted']) {
      const policy = resourcesOfType(t, 'AWS::SQS::QueuePolicy').find(
        ([, r]) => r.Properties.Queues[0].Ref === queueId(t, q),
      );
      const deny = (policy?.[1].Properties.PolicyDocument.Statement as Cfn[]).find(
        (st) => st.Sid === 'DenySendExceptDeliverRole',
      );
      expect(deny, q).toMatchObject({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 'sqs:SendMessage',
        Condition: { ArnNotEquals: { 'aws:PrincipalArn': { 'Fn::GetAtt': [deliverRole, 'Arn'] } } },
      });
    }
  });

  it('name every queue and table exactly as resourceNames says, so the local stack provisions the same ones', () => {
    const config = { ...defaultConfig('qa'), stage: 'qa' };
    const t = template({ stage: 'qa' });
    const n = resourceNames('qa', config);
    const expectedQueues = [n.intake, n.ledgerQueue, n.deliveryQueue, n.unrouted, ...Object.values(n.routes)]
      .flatMap((p) => [p.queue, p.dlq])
      .concat(n.rejectsQueue)
      .sort();
    expect(
      resourcesOfType(t, 'AWS::SQS::Queue')
        .map(([, r]) => r.Properties.QueueName)
        .sort(),
    ).toEqual(expectedQueues);
    expect(
      resourcesOfType(t, 'AWS::DynamoDB::Table')
        .map(([, r]) => r.Properties.TableName)
        .sort(),
    ).toEqual([n.ledgerTable, n.packsTable, n.requestsTable].sort());
    expect(
      resourcesOfType(t, 'AWS::Lambda::Function')
        .map(([, r]) => r.Properties.FunctionName)
        .sort(),
    ).toEqual([n.checkpointFunction, n.deliverFunction, n.evaluateFunction, n.sequenceFunction].sort());
  });
});

describe('signing key', () => {
  it('is a Secrets Manager secret created with a generated placeholder, so no key material is ever in the template', () => {
    const t = template();
    const [id, secret] = only(t, 'AWS::SecretsManager::Secret');
    expect(secret.Properties.Name).toBe('docket/dev/signing-key');
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(JSON.parse(secret.Properties.GenerateSecretString.SecretStringTemplate)).toEqual({
      docketPlaceholder: true,
    });
    expect(secret.DeletionPolicy).toBe('Retain');
    expect(secret.Properties.KmsKeyId).toBeDefined();
    // The evaluate function gets the ARN only; the checkpoint function not even that (ADR 0120): it signs with KMS.
    const secretRefs = (fn: string) =>
      Object.values(props(t, functionId(t, fn)).Environment.Variables as Cfn).filter((v) =>
        JSON.stringify(v).includes(id),
      );
    expect(secretRefs('docket-dev-evaluate')).toEqual([{ Ref: id }]);
    expect(secretRefs('docket-dev-checkpoint')).toEqual([]);
    // The deliver function reads entries back and signs nothing: no secret, not even its ARN (ADR 0404).
    expect(secretRefs('docket-dev-deliver')).toEqual([]);
    const deliverEnv = props(t, functionId(t, 'docket-dev-deliver')).Environment.Variables as Cfn;
    expect(Object.keys(deliverEnv).filter((k) => /SIGNING|KMS|SECRET/.test(k))).toEqual([]);
    const cpEnv = props(t, functionId(t, 'docket-dev-checkpoint')).Environment.Variables as Cfn;
    const [keyId] = resourcesOfType(t, 'AWS::KMS::Key').find(
      ([, r]) => r.Properties.KeySpec === 'ECC_NIST_EDWARDS25519',
    )!;
    expect(cpEnv.CHECKPOINT_KMS_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(cpEnv.TRUST_POLICY_PARAMETER).toBe('/docket/dev/trust-policy');
    expect(JSON.stringify(t)).not.toMatch(/PRIVATE KEY|privateKey|"SecretString"/);
  });

  it('publishes a configured trust policy as an SSM parameter and an output, and creates no parameter without one', () => {
    const trustPolicy = JSON.stringify({ version: 1, keys: [{ keyId: 'k1', publicKey: 'AAAA', fromSeq: 0 }] });
    const t = template({ trustPolicy });
    const [, param] = only(t, 'AWS::SSM::Parameter');
    expect(param.Properties).toMatchObject({ Name: '/docket/dev/trust-policy', Value: trustPolicy, Type: 'String' });
    expect(t.Outputs.TrustPolicy.Value).toBe(trustPolicy);
    expect(resourcesOfType(template(), 'AWS::SSM::Parameter')).toHaveLength(0);
    expect(template().Outputs.TrustPolicy.Value).toMatch(/not configured/);
  });
});

describe('checkpoints', () => {
  it('run the checkpoint function on the configured EventBridge schedule', () => {
    const t = template({ checkpointSchedule: 'rate(5 minutes)' });
    const [, rule] = only(t, 'AWS::Events::Rule');
    expect(rule.Properties.ScheduleExpression).toBe('rate(5 minutes)');
    expect(rule.Properties.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [functionId(t, 'docket-dev-checkpoint'), 'Arn'] });
    const fn = props(t, functionId(t, 'docket-dev-checkpoint'));
    expect(fn.Runtime).toBe('nodejs24.x');
    expect(fn.Architectures).toEqual(['arm64']);
  });

  it('are exported to a bucket with Object Lock in compliance mode, versioning, public access blocked, TLS only and KMS encryption', () => {
    const t = template({ checkpointExportRetentionDays: 3650 });
    const bucketId = logicalIdWhere(t, 'AWS::S3::Bucket', (p) => p.ObjectLockEnabled === true);
    const b = props(t, bucketId);
    expect(b.ObjectLockConfiguration).toEqual({
      ObjectLockEnabled: 'Enabled',
      Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 3650 } },
    });
    expect(b.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(b.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(b.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe(
      'aws:kms',
    );
    expect(b.LoggingConfiguration.DestinationBucketName).toBeDefined();
    expect(t.Resources[bucketId].DeletionPolicy).toBe('Retain');
    const policy = resourcesOfType(t, 'AWS::S3::BucketPolicy').find(([, r]) => r.Properties.Bucket.Ref === bucketId);
    expect(JSON.stringify(policy?.[1].Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    const env = props(t, functionId(t, 'docket-dev-checkpoint')).Environment.Variables as Cfn;
    expect(env[ENV.exportBucket]).toEqual({ Ref: bucketId });
  });
});

describe('alarms', () => {
  it('watch every DLQ, the four functions’ errors, evaluate and ledger throttling, the oldest intake, ledger-queue and delivery message and refused delivery jobs, all to one encrypted topic', () => {
    const t = template({
      alarms: { ...defaultConfig('dev').alarms, dlqDepth: 3, intakeAgeOfOldestMessageSeconds: 600 },
    });
    const alarms = resourcesOfType(t, 'AWS::CloudWatch::Alarm').map(([, r]) => r.Properties as Cfn);
    const [topicId, topic] = resourcesOfType(t, 'AWS::SNS::Topic').find(
      ([, r]) => r.Properties.TopicName === 'docket-dev-alarms',
    )!;
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    for (const a of alarms) expect(a.AlarmActions).toEqual([{ Ref: topicId }]);
    const dlqIds = resourcesOfType(t, 'AWS::SQS::Queue')
      .filter(([, r]) => /-dlq(\.fifo)?$/.test(r.Properties.QueueName as string))
      .map(([id]) => id);
    // intake, FIFO ledger queue, delivery, unrouted and three routes.
    expect(dlqIds.length).toBe(7);
    expect(dlqIds).toContain(queueId(t, 'docket-dev-delivery-dlq'));
    for (const dlq of dlqIds) {
      const a = alarms.find(
        (x) =>
          x.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(x.Dimensions).includes(`"${dlq}"`),
      );
      expect(a, dlq).toMatchObject({ Threshold: 3, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    }
    for (const fn of ['docket-dev-evaluate', 'docket-dev-checkpoint', 'docket-dev-sequence', 'docket-dev-deliver']) {
      const a = alarms.find(
        (x) => x.MetricName === 'Errors' && JSON.stringify(x.Dimensions).includes(`"${functionId(t, fn)}"`),
      );
      expect(a, fn).toBeDefined();
    }
    const throttles = alarms.find((x) => x.MetricName === 'Throttles');
    expect(JSON.stringify(throttles?.Dimensions)).toContain(`"${functionId(t, 'docket-dev-evaluate')}"`);
    const ledgerThrottles = alarms.find((x) => x.MetricName === 'WriteThrottleEvents');
    expect(ledgerThrottles).toMatchObject({ Namespace: 'AWS/DynamoDB', Statistic: 'Sum', Threshold: 1 });
    expect(JSON.stringify(ledgerThrottles!.Dimensions)).toContain(`"${tableId(t, 'docket-dev-ledger')}"`);
    // The checkpoint writer's refusals (an entry it would cover fails verification) page like errors do.
    const refusals = alarms.find((x) => x.MetricName === 'CheckpointRefusals');
    expect(refusals).toMatchObject({
      Namespace: 'Docket',
      Dimensions: [{ Name: 'service', Value: 'docket-checkpoint' }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    // Failed deliveries from the results topic to its subscribers (SNS retries exhausted).
    const failed = alarms.find((x) => x.MetricName === 'NumberOfNotificationsFailed');
    expect(failed).toMatchObject({ Namespace: 'AWS/SNS', Statistic: 'Sum', Threshold: 1 });
    expect(JSON.stringify(failed!.Dimensions)).toContain('"TopicName"');
    // A log's head moving backwards (only a deletion does that) pages (ADR 0271).
    expect(alarms.find((x) => x.MetricName === 'LedgerHeadRegressed')).toMatchObject({
      Namespace: 'Docket',
      Dimensions: [{ Name: 'service', Value: 'docket-evaluate' }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    // A delivery job the deliver function refused (only a writer other than the evaluate function makes one).
    expect(alarms.find((x) => x.MetricName === 'DeliveryJobsRefused')).toMatchObject({
      AlarmName: 'docket-dev-delivery-jobs-refused',
      Namespace: 'Docket',
      Dimensions: [{ Name: 'service', Value: 'docket-deliver' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    // DLQs, four functions' errors, two throttles, checkpoint refusals, failed deliveries, head regression, three
    // ages, refused delivery jobs, the rejects queue's depth.
    expect(alarms).toHaveLength(7 + 4 + 2 + 1 + 1 + 1 + 3 + 1 + 1);
    // A request the ledger could not record fires an alarm as a DLQ message does (ADR 0071, ADR 0492).
    expect(alarms.find((x) => x.AlarmName === 'docket-dev-rejects-depth')).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId(t, 'docket-dev-rejects'), 'QueueName'] } }],
      Threshold: alarms.find((x) => x.AlarmName === 'docket-dev-intake-dlq-depth')!.Threshold,
    });
    const ages = alarms.filter((x) => x.MetricName === 'ApproximateAgeOfOldestMessage');
    expect(ages).toHaveLength(3);
    for (const q of ['docket-dev-intake', 'docket-dev-ledger.fifo', 'docket-dev-delivery']) {
      const age = ages.find((x) => JSON.stringify(x.Dimensions).includes(`"${queueId(t, q)}"`));
      expect(age, q).toMatchObject({ Threshold: 600, Namespace: 'AWS/SQS' });
    }
    expect(ages.map((x) => x.AlarmName)).toContain('docket-dev-delivery-queue-age-of-oldest-message');
    const alarmNames = alarms.map((x) => x.AlarmName as string);
    for (const n of ['docket-dev-delivery-dlq-depth', 'docket-dev-deliver-errors']) expect(alarmNames).toContain(n);
  });
});

describe('function code signing (ADR 0122)', () => {
  it('attaches one Enforce code-signing configuration, trusting one AWS Signer profile for Lambda, to every function', () => {
    const t = template();
    const [profileId, profile] = only(t, 'AWS::Signer::SigningProfile');
    expect(profile.Properties.PlatformId).toBe('AWSLambda-SHA384-ECDSA');
    const [cscId, csc] = only(t, 'AWS::Lambda::CodeSigningConfig');
    expect(csc.Properties.CodeSigningPolicies).toEqual({ UntrustedArtifactOnDeployment: 'Enforce' });
    expect(JSON.stringify(csc.Properties.AllowedPublishers.SigningProfileVersionArns)).toContain(profileId);
    expect(resourcesOfType(t, 'AWS::Lambda::Function')).toHaveLength(4);
    for (const fn of ['docket-dev-evaluate', 'docket-dev-checkpoint', 'docket-dev-sequence', 'docket-dev-deliver'])
      expect(props(t, functionId(t, fn)).CodeSigningConfigArn, fn).toEqual({
        'Fn::GetAtt': [cscId, 'CodeSigningConfigArn'],
      });
  });
});

describe('outputs', () => {
  it('give the URL of every queue requesters and consumers use and the name of every table', () => {
    const t = template();
    const out = (k: string) => resolve(t, t.Outputs[k].Value);
    expect(out('IntakeQueueUrl')).toBe('url:docket-dev-intake');
    expect(out('IntakeDlqUrl')).toBe('url:docket-dev-intake-dlq');
    expect(out('RejectsQueueUrl')).toBe('url:docket-dev-rejects');
    expect(out('UnroutedQueueUrl')).toBe('url:docket-dev-unrouted');
    expect(out('RouteQueueUrlReview')).toBe('url:docket-dev-route-review');
    expect(out('RouteQueueUrlCaseManagement')).toBe('url:docket-dev-route-case-management');
    expect(out('LedgerTableName')).toBe(`ref:${tableId(t, 'docket-dev-ledger')}`);
    expect(out('PacksTableName')).toBe(`ref:${tableId(t, 'docket-dev-packs')}`);
    expect(out('RequestsTableName')).toBe(`ref:${tableId(t, 'docket-dev-requests')}`);
    expect(out('SigningSecretArn')).toMatch(/^ref:SigningKeySecret/);
    expect(out('AuditorPolicyArn')).toMatch(/^ref:AuditAccessPolicy/);
    expect(out('PackPublisherPolicyArn')).toMatch(/^ref:RegistryPublisherPolicy/);
    expect(out('RequestPurgeRoleArn')).toMatch(/^RequestArchivePurgeRole[0-9A-F]+\.Arn$/);
  });
});

describe('environment independence', () => {
  it('hard-codes no account id and no region: both come from pseudo parameters at deploy time', () => {
    const text = JSON.stringify(template({ stage: 'prod' }));
    expect(text).not.toMatch(/\b\d{12}\b/);
    expect(text).not.toMatch(
      /\b(us|eu|ap|sa|ca|me|af|il|mx)-(east|west|north|south|central|northeast|southeast|northwest|southwest)-\d\b/,
    );
    expect(text).toContain('"Ref":"AWS::Region"');
    expect(text).toContain('"Ref":"AWS::AccountId"');
  });
});

describe('roles', () => {
  it('give each function its own role and never an AWS managed policy', () => {
    const t = template();
    const fns = ['docket-dev-evaluate', 'docket-dev-checkpoint', 'docket-dev-sequence', 'docket-dev-deliver'];
    expect(new Set(fns.map((fn) => roleOfFunction(t, fn))).size).toBe(fns.length);
    for (const [, r] of resourcesOfType(t, 'AWS::IAM::Role')) expect(r.Properties.ManagedPolicyArns).toBeUndefined();
  });
});
