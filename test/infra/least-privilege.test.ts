import { describe, expect, it } from 'vitest';
import { LEDGER_REWRITE_ACTIONS } from '../../infra/constructs/ledger.js';
import { ADMIN_ARN, ROOT_ARN, allowed, identityAllows, resourceDenials } from './policy-sim.js';
import {
  functionId,
  policySources,
  queueId,
  resolve,
  resourcesOfType,
  roleOfFunction,
  roleStatements,
  tableId,
  template,
  type Cfn,
} from './template.js';

const t = template();
const ledger = tableId(t, 'docket-dev-ledger');
const packs = tableId(t, 'docket-dev-packs');
const requests = tableId(t, 'docket-dev-requests');
const evaluateRole = roleOfFunction(t, 'docket-dev-evaluate');
const checkpointRole = roleOfFunction(t, 'docket-dev-checkpoint');
const purgeRole = resourcesOfType(t, 'AWS::IAM::Role').find(
  ([, r]) => r.Properties.RoleName === 'docket-dev-requests-purger',
)![0];
const secretId = resourcesOfType(t, 'AWS::SecretsManager::Secret')[0]![0];
const allStatements = policySources(t).flatMap((s) => s.statements.map((st) => ({ source: s, st })));
const ITEM_WRITES = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
];

describe('no wildcard actions', () => {
  it('no policy grants a bare * action or a service-wide wildcard, except kms:* to the account root in key policies', () => {
    const wild = allStatements.filter(
      ({ st }) => st.Effect === 'Allow' && st.Action.some((a) => a === '*' || a.endsWith(':*')),
    );
    for (const { source, st } of wild) {
      expect(source.kind, JSON.stringify(st)).toBe('key');
      expect(st.Action).toEqual(['kms:*']);
      expect(resolve(t, (st.Principal as Cfn).AWS)).toBe('arn:<AWS::Partition>:iam::<AWS::AccountId>:root');
    }
    // Service-wide wildcards appear only in Deny statements (the TLS-only policies of queues, buckets and topic).
    const serviceWide = allStatements.filter(({ st }) =>
      st.Action.some((a) => /^(dynamodb|sqs|s3|secretsmanager|logs|sns):\*$/.test(a)),
    );
    expect(serviceWide.length).toBeGreaterThan(0);
    for (const { st } of serviceWide) expect(st.Effect, JSON.stringify(st)).toBe('Deny');
  });

  it('no identity policy allows an action on every resource', () => {
    const identity = allStatements.filter(({ source, st }) => source.kind === 'identity' && st.Effect === 'Allow');
    expect(identity.length).toBeGreaterThan(5);
    for (const { st } of identity) expect(st.Resource, JSON.stringify(st)).not.toContain('*');
  });
});

describe('ledger: append-only for every principal', () => {
  it('no identity policy in the stack allows UpdateItem, DeleteItem or BatchWriteItem on the ledger', () => {
    const roles = resourcesOfType(t, 'AWS::IAM::Role').map(([id]) => id);
    for (const role of roles) {
      for (const action of [
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:BatchWriteItem',
        'dynamodb:PartiQLUpdate',
        'dynamodb:PartiQLDelete',
      ]) {
        expect(
          identityAllows(t, role, { action, resource: ledger, leadingKey: 'log#dev-0' }),
          `${role} ${action}`,
        ).toBe(false);
      }
    }
  });

  it('the resource policy denies every rewrite to every principal, the writer roles included', () => {
    for (const principal of [ADMIN_ARN, ROOT_ARN, evaluateRole, checkpointRole]) {
      for (const action of LEDGER_REWRITE_ACTIONS) {
        expect(
          resourceDenials(t, { principal, action, resource: ledger, leadingKey: 'log#dev-0' }).length,
          `${principal} ${action}`,
        ).toBeGreaterThan(0);
      }
    }
  });

  it('an administrator with every IAM permission still cannot put, update, delete or batch-write ledger items', () => {
    for (const action of ITEM_WRITES) {
      for (const key of ['log#dev-0', 'req#r1', 'ckpt#dev-0'])
        expect(
          allowed(t, { principal: ADMIN_ARN, action, resource: ledger, leadingKey: key }),
          `${action} ${key}`,
        ).toBe(false);
    }
    // …but can still read it (auditors, `docket verify`).
    expect(
      allowed(t, { principal: ADMIN_ARN, action: 'dynamodb:Query', resource: ledger, leadingKey: 'log#dev-0' }),
    ).toBe(true);
  });

  it('only the evaluate and checkpoint roles hold PutItem on the ledger', () => {
    const holders = resourcesOfType(t, 'AWS::IAM::Role')
      .map(([id]) => id)
      .filter((role) =>
        ['log#dev-0', 'req#r1', 'ckpt#dev-0'].some((k) =>
          identityAllows(t, role, { action: 'dynamodb:PutItem', resource: ledger, leadingKey: k }),
        ),
      );
    expect(holders.sort()).toEqual([checkpointRole, evaluateRole].sort());
  });

  it('the evaluate role appends entries and request markers but can never write a checkpoint item', () => {
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'log#dev-3' }),
    ).toBe(true);
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'req#abc' }),
    ).toBe(true);
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'ckpt#dev-3' }),
    ).toBe(false);
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'other' }),
    ).toBe(false);
    // Denied by the resource policy too, not only by the missing grant.
    expect(
      resourceDenials(t, {
        principal: evaluateRole,
        action: 'dynamodb:PutItem',
        resource: ledger,
        leadingKey: 'ckpt#dev-3',
      }).length,
    ).toBeGreaterThan(0);
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:GetItem', resource: ledger, leadingKey: 'req#abc' }),
    ).toBe(true);
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:Query', resource: ledger, leadingKey: 'log#dev-0' }),
    ).toBe(true);
    expect(allowed(t, { principal: evaluateRole, action: 'dynamodb:Scan', resource: ledger })).toBe(false);
  });

  it('the checkpoint role writes checkpoint items only, and reads entries and checkpoints', () => {
    expect(
      allowed(t, { principal: checkpointRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'ckpt#dev-0' }),
    ).toBe(true);
    for (const key of ['log#dev-0', 'req#abc']) {
      expect(
        allowed(t, { principal: checkpointRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: key }),
      ).toBe(false);
      expect(
        resourceDenials(t, { principal: checkpointRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: key })
          .length,
      ).toBeGreaterThan(0);
    }
    expect(
      allowed(t, { principal: checkpointRole, action: 'dynamodb:Query', resource: ledger, leadingKey: 'log#dev-0' }),
    ).toBe(true);
    expect(
      allowed(t, { principal: checkpointRole, action: 'dynamodb:Query', resource: ledger, leadingKey: 'ckpt#dev-0' }),
    ).toBe(true);
    expect(
      allowed(t, { principal: checkpointRole, action: 'dynamodb:GetItem', resource: ledger, leadingKey: 'req#abc' }),
    ).toBe(false);
    // Checkpoint notes are the checkpointer's too; cosignatures it may read (for the notes export) but never write.
    expect(
      allowed(t, { principal: checkpointRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'note#dev-0' }),
    ).toBe(true);
    expect(
      allowed(t, {
        principal: checkpointRole,
        action: 'dynamodb:Query',
        resource: ledger,
        leadingKey: 'cosig#dev-0#4',
      }),
    ).toBe(true);
    expect(
      allowed(t, {
        principal: checkpointRole,
        action: 'dynamodb:PutItem',
        resource: ledger,
        leadingKey: 'cosig#dev-0#4',
      }),
    ).toBe(false);
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'note#dev-0' }),
    ).toBe(false);
    expect(allowed(t, { principal: checkpointRole, action: 'dynamodb:Scan', resource: ledger })).toBe(false);
  });

  it('the simulator is not vacuous: the same questions on a table without those statements come out allowed', () => {
    const bare = structuredClone(t);
    delete bare.Resources[ledger].Properties.ResourcePolicy;
    expect(
      allowed(bare, { principal: ADMIN_ARN, action: 'dynamodb:UpdateItem', resource: ledger, leadingKey: 'log#dev-0' }),
    ).toBe(true);
    expect(
      allowed(bare, { principal: ADMIN_ARN, action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'log#dev-0' }),
    ).toBe(true);
  });
});

describe('pack registry and request archive', () => {
  it('nobody can update or delete a published pack; the evaluate role only reads the registry', () => {
    for (const action of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) {
      expect(allowed(t, { principal: ADMIN_ARN, action, resource: packs, leadingKey: 'pack#x' })).toBe(false);
    }
    expect(
      allowed(t, { principal: ADMIN_ARN, action: 'dynamodb:PutItem', resource: packs, leadingKey: 'pack#x' }),
    ).toBe(true);
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:GetItem', resource: packs, leadingKey: 'pack#x' }),
    ).toBe(true);
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:PutItem', resource: packs, leadingKey: 'pack#x' }),
    ).toBe(false);
  });

  it('only the purge role may delete archived request bytes, and nobody may update them', () => {
    expect(
      allowed(t, { principal: purgeRole, action: 'dynamodb:DeleteItem', resource: requests, leadingKey: 'request#d' }),
    ).toBe(true);
    for (const principal of [ADMIN_ARN, evaluateRole, checkpointRole]) {
      expect(
        allowed(t, { principal, action: 'dynamodb:DeleteItem', resource: requests, leadingKey: 'request#d' }),
        principal,
      ).toBe(false);
    }
    for (const principal of [ADMIN_ARN, purgeRole, evaluateRole]) {
      expect(
        allowed(t, { principal, action: 'dynamodb:UpdateItem', resource: requests, leadingKey: 'request#d' }),
        principal,
      ).toBe(false);
    }
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:PutItem', resource: requests, leadingKey: 'request#d' }),
    ).toBe(true);
    // The purge role cannot reach the ledger at all.
    expect(
      allowed(t, { principal: purgeRole, action: 'dynamodb:DeleteItem', resource: ledger, leadingKey: 'req#r' }),
    ).toBe(false);
    expect(
      identityAllows(t, purgeRole, { action: 'dynamodb:GetItem', resource: ledger, leadingKey: 'log#dev-0' }),
    ).toBe(false);
  });
});

describe('signing keys (separate custody, ADR 0120)', () => {
  const checkpointKeyId = resourcesOfType(t, 'AWS::KMS::Key').find(
    ([, r]) => r.Properties.KeySpec === 'ECC_NIST_EDWARDS25519',
  )![0];

  it('only the evaluate function may read the entry key secret: the checkpoint function no longer can', () => {
    const readers = resourcesOfType(t, 'AWS::IAM::Role')
      .map(([id]) => id)
      .filter((role) => identityAllows(t, role, { action: 'secretsmanager:GetSecretValue', resource: secretId }));
    expect(readers).toEqual([evaluateRole]);
    expect(allowed(t, { principal: ADMIN_ARN, action: 'secretsmanager:GetSecretValue', resource: secretId })).toBe(
      false,
    );
    expect(allowed(t, { principal: ROOT_ARN, action: 'secretsmanager:GetSecretValue', resource: secretId })).toBe(
      false,
    );
    expect(allowed(t, { principal: evaluateRole, action: 'secretsmanager:GetSecretValue', resource: secretId })).toBe(
      true,
    );
    expect(allowed(t, { principal: checkpointRole, action: 'secretsmanager:GetSecretValue', resource: secretId })).toBe(
      false,
    );
    expect(allowed(t, { principal: purgeRole, action: 'secretsmanager:GetSecretValue', resource: secretId })).toBe(
      false,
    );
  });

  it('the checkpoint key is a non-exportable Ed25519 signing key in KMS', () => {
    const key = t.Resources[checkpointKeyId] as Cfn;
    expect([key.Properties.KeySpec, key.Properties.KeyUsage]).toEqual(['ECC_NIST_EDWARDS25519', 'SIGN_VERIFY']);
    expect(key.DeletionPolicy).toBe('Retain');
  });

  it('only the checkpoint role may sign with the checkpoint key; the evaluate role, administrators and root may not', () => {
    const signers = resourcesOfType(t, 'AWS::IAM::Role')
      .map(([id]) => id)
      .filter((role) => identityAllows(t, role, { action: 'kms:Sign', resource: checkpointKeyId }));
    expect(signers).toEqual([checkpointRole]);
    expect(allowed(t, { principal: checkpointRole, action: 'kms:Sign', resource: checkpointKeyId })).toBe(true);
    for (const p of [evaluateRole, purgeRole, ADMIN_ARN, ROOT_ARN])
      expect(allowed(t, { principal: p, action: 'kms:Sign', resource: checkpointKeyId }), p).toBe(false);
    // Without the key policy's deny, an administrator could sign: the deny is what stops it (not vacuous).
    expect(resourceDenials(t, { principal: ADMIN_ARN, action: 'kms:Sign', resource: checkpointKeyId })).toHaveLength(1);
  });

  it('the checkpoint role reads only the trust policy parameter from SSM and writes no parameter', () => {
    const ssm = roleStatements(t, checkpointRole).filter((s) => s.Action.some((a) => a.startsWith('ssm:')));
    expect(ssm.flatMap((s) => s.Action)).toEqual(['ssm:GetParameter']);
    expect(JSON.stringify(ssm[0]!.Resource)).toContain('docket/dev/trust-policy');
    expect(roleStatements(t, evaluateRole).some((s) => s.Action.some((a) => a.startsWith('ssm:')))).toBe(false);
  });
});

describe('the results topic', () => {
  const topic = resourcesOfType(t, 'AWS::SNS::Topic').find(
    ([, r]) => r.Properties.TopicName === 'docket-dev-results',
  )![0];

  it('only the evaluate role may publish: administrators, the root user, requesters and the checkpoint role are denied', () => {
    const req = { action: 'sns:Publish', resource: topic };
    expect(allowed(t, { ...req, principal: evaluateRole })).toBe(true);
    const requesterLike = 'arn:aws:iam::111122223333:role/requester';
    for (const outsider of [ADMIN_ARN, ROOT_ARN, requesterLike, checkpointRole, purgeRole])
      expect(allowed(t, { ...req, principal: outsider }), outsider).toBe(false);
    // Subscribing stays open to whom IAM allows it (the waiter policy): the deny names Publish only.
    expect(allowed(t, { action: 'sns:Subscribe', resource: topic, principal: ADMIN_ARN })).toBe(true);
  });

  it('is encrypted with a key of its own, which the evaluate role may use only through SNS', () => {
    const keyRef = JSON.stringify(t.Resources[topic].Properties.KmsMasterKeyId);
    expect(keyRef).toMatch(/ResultsTopicKey/);
    const keyUse = roleStatements(t, evaluateRole).filter((s) =>
      JSON.stringify(s.Resource).includes('ResultsTopicKey'),
    );
    expect(keyUse.flatMap((s) => s.Action).sort()).toEqual([
      'kms:Decrypt',
      'kms:DescribeKey',
      'kms:Encrypt',
      'kms:GenerateDataKey',
    ]);
    expect(keyUse.every((s) => JSON.stringify(s.Condition).includes('sns.'))).toBe(true);
  });

  it('the waiter policy subscribes SQS endpoints only and manages only queues under the stage wait prefix', () => {
    const waiterId = resourcesOfType(t, 'AWS::IAM::ManagedPolicy').find(
      ([, r]) => r.Properties.ManagedPolicyName === 'docket-dev-results-waiter',
    )![0];
    const waiter = policySources(t).find((s) => s.logicalId === waiterId);
    expect(waiter).toBeDefined();
    const subscribe = waiter!.statements.find((s) => s.Action.includes('sns:Subscribe'))!;
    expect(subscribe.Condition).toEqual({ StringEquals: { 'sns:Protocol': 'sqs' } });
    const sqsActions = waiter!.statements.filter((s) => s.Action.some((a) => a.startsWith('sqs:')));
    expect(sqsActions.flatMap((s) => s.Resource).map((r) => resolve(t, r))).toEqual([
      'arn:<AWS::Partition>:sqs:<AWS::Region>:<AWS::AccountId>:docket-dev-wait-*',
    ]);
    expect(sqsActions.flatMap((s) => s.Action)).not.toContain('sqs:SendMessage');
  });
});

describe('queues', () => {
  const sends = (role: string, queueName: string) =>
    identityAllows(t, role, { action: 'sqs:SendMessage', resource: queueId(t, queueName) });

  it('the evaluate role sends to the handoff queues and the intake DLQ only: never to the intake queue or a route DLQ', () => {
    for (const q of [
      'docket-dev-route-review',
      'docket-dev-route-oversight',
      'docket-dev-route-case-management',
      'docket-dev-unrouted',
      'docket-dev-intake-dlq',
    ]) {
      expect(sends(evaluateRole, q), q).toBe(true);
    }
    const routeDlqs = resourcesOfType(t, 'AWS::SQS::Queue')
      .map(([, r]) => r.Properties.QueueName as string)
      .filter((n) => n.endsWith('-dlq') && n !== 'docket-dev-intake-dlq');
    expect(routeDlqs).toHaveLength(4);
    for (const q of ['docket-dev-intake', ...routeDlqs]) expect(sends(evaluateRole, q), q).toBe(false);
  });

  it('only the evaluate role may send to a handoff queue: administrators, the root user and consumers are denied', () => {
    const consumerRoleLike = 'arn:aws:iam::111122223333:role/oversight-team';
    for (const q of ['docket-dev-route-oversight', 'docket-dev-route-review', 'docket-dev-unrouted']) {
      const req = { action: 'sqs:SendMessage', resource: queueId(t, q) };
      expect(allowed(t, { ...req, principal: evaluateRole }), q).toBe(true);
      for (const outsider of [ADMIN_ARN, ROOT_ARN, consumerRoleLike, checkpointRole, purgeRole])
        expect(allowed(t, { ...req, principal: outsider }), `${outsider} on ${q}`).toBe(false);
      // Reading stays as it was: the deny names SendMessage only.
      expect(allowed(t, { action: 'sqs:ReceiveMessage', resource: queueId(t, q), principal: ADMIN_ARN })).toBe(true);
    }
    // The intake queue keeps its requesters: the restriction is on handoff queues only.
    expect(
      allowed(t, { action: 'sqs:SendMessage', resource: queueId(t, 'docket-dev-intake'), principal: ADMIN_ARN }),
    ).toBe(true);
  });

  it('only the sequence role consumes the intake queue, only the evaluate role the FIFO ledger queue, and the checkpoint role touches no queue', () => {
    const intake = queueId(t, 'docket-dev-intake');
    const ledgerQueue = queueId(t, 'docket-dev-ledger.fifo');
    const sequenceRole = roleOfFunction(t, 'docket-dev-sequence');
    expect(identityAllows(t, sequenceRole, { action: 'sqs:DeleteMessage', resource: intake })).toBe(true);
    expect(identityAllows(t, sequenceRole, { action: 'sqs:ReceiveMessage', resource: intake })).toBe(true);
    expect(identityAllows(t, evaluateRole, { action: 'sqs:ReceiveMessage', resource: ledgerQueue })).toBe(true);
    expect(identityAllows(t, evaluateRole, { action: 'sqs:DeleteMessage', resource: ledgerQueue })).toBe(true);
    expect(identityAllows(t, evaluateRole, { action: 'sqs:ReceiveMessage', resource: intake })).toBe(false);
    expect(roleStatements(t, checkpointRole).some((s) => s.Action.some((a) => a.startsWith('sqs:')))).toBe(false);
    const receives = (role: string) =>
      roleStatements(t, role)
        .filter((s) => s.Action.includes('sqs:ReceiveMessage'))
        .flatMap((s) => s.Resource);
    expect(receives(evaluateRole)).toEqual([{ 'Fn::GetAtt': [ledgerQueue, 'Arn'] }]);
    expect(receives(sequenceRole)).toEqual([{ 'Fn::GetAtt': [intake, 'Arn'] }]);
  });

  it('the sequence role holds no key, no table and no queue but sending to the FIFO ledger queue and consuming intake', () => {
    const sequenceRole = roleOfFunction(t, 'docket-dev-sequence');
    const actions = roleStatements(t, sequenceRole).flatMap((s) => s.Action);
    expect(actions.filter((a) => !a.startsWith('sqs:') && !a.startsWith('logs:'))).toEqual([]);
    const ledgerQueue = queueId(t, 'docket-dev-ledger.fifo');
    const sends = roleStatements(t, sequenceRole)
      .filter((s) => s.Action.includes('sqs:SendMessage'))
      .flatMap((s) => s.Resource);
    expect(sends).toEqual([{ 'Fn::GetAtt': [ledgerQueue, 'Arn'] }]);
  });
});

describe('people', () => {
  const managed = (name: string) => {
    const [id] = resourcesOfType(t, 'AWS::IAM::ManagedPolicy').find(
      ([, r]) => r.Properties.ManagedPolicyName === name,
    )!;
    return policySources(t).find((s) => s.logicalId === id)!.statements;
  };

  it('requesters may only send to the intake queue', () => {
    const st = managed('docket-dev-intake-requester');
    expect(st.flatMap((s) => s.Action).sort()).toEqual([
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    expect(st.flatMap((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [queueId(t, 'docket-dev-intake'), 'Arn'] }]);
  });

  it('each handoff queue has its own consumer policy that reads and acknowledges that queue only', () => {
    for (const q of [
      'docket-dev-route-review',
      'docket-dev-route-oversight',
      'docket-dev-route-case-management',
      'docket-dev-unrouted',
    ]) {
      const st = managed(`${q}-consumer`);
      const onQueue = st.filter((s) => s.Resource.some((r) => resolve(t, r) === `${queueId(t, q)}.Arn`));
      const onDlq = st.filter((s) => s.Resource.some((r) => resolve(t, r) === `${queueId(t, `${q}-dlq`)}.Arn`));
      expect(onQueue.flatMap((s) => s.Action)).toContain('sqs:ReceiveMessage');
      expect(onQueue.flatMap((s) => s.Action).some((a) => a === 'sqs:SendMessage' || a === 'sqs:PurgeQueue')).toBe(
        false,
      );
      // A refused message is moved to the route's DLQ with its reason (`docket handoffs`): send there, nothing else.
      expect(onDlq.flatMap((s) => s.Action).sort()).toEqual(['sqs:GetQueueUrl', 'sqs:SendMessage']);
      expect(onQueue.length + onDlq.length).toBe(st.length);
    }
  });
});

describe('auditor policy', () => {
  it('reads the ledger, registry, archive, exported checkpoints and trust policy, and writes nothing', () => {
    const [policyId] = resourcesOfType(t, 'AWS::IAM::ManagedPolicy').find(
      ([, r]) => r.Properties.ManagedPolicyName === 'docket-dev-auditor',
    )!;
    const statements = policySources(t).find((s) => s.logicalId === policyId)!.statements;
    const actions = statements.flatMap((s) => s.Action).sort();
    expect(actions).toEqual(
      [
        'dynamodb:DescribeTable',
        'dynamodb:GetItem',
        'dynamodb:Query',
        'dynamodb:Scan',
        'kms:Decrypt',
        'kms:DescribeKey',
        's3:GetObject',
        's3:GetObjectVersion',
        's3:ListBucket',
        's3:ListBucketVersions',
        'ssm:GetParameter',
      ].sort(),
    );
    const tables = statements
      .find((s) => s.Action.includes('dynamodb:Scan'))!
      .Resource.map((r) => resolve(t, r))
      .sort();
    expect(tables).toEqual([`${ledger}.Arn`, `${packs}.Arn`, `${requests}.Arn`].sort());
    // Reading is all it can do: the ledger's resource policy still denies it every write.
    expect(
      resourceDenials(t, {
        principal: ADMIN_ARN,
        action: 'dynamodb:PutItem',
        resource: ledger,
        leadingKey: 'log#dev-0',
      }).length,
    ).toBeGreaterThan(0);
  });
});

describe('keys and logs', () => {
  it('every identity KMS permission is usable only through DynamoDB, Secrets Manager or S3, except signing with the checkpoint key', () => {
    const checkpointKey = resourcesOfType(t, 'AWS::KMS::Key').find(
      ([, r]) => r.Properties.KeySpec === 'ECC_NIST_EDWARDS25519',
    )![0];
    const signing = allStatements.filter(
      ({ source, st }) => source.kind === 'identity' && st.Action.some((a) => a === 'kms:Sign'),
    );
    expect(signing.map(({ st }) => [st.Action, st.Resource])).toEqual([
      [['kms:GetPublicKey', 'kms:Sign'], [{ 'Fn::GetAtt': [checkpointKey, 'Arn'] }]],
    ]);
    const kmsStatements = allStatements.filter(
      ({ source, st }) =>
        source.kind === 'identity' && st.Action.some((a) => a.startsWith('kms:')) && !signing.some((x) => x.st === st),
    );
    expect(kmsStatements.length).toBeGreaterThan(0);
    for (const { st } of kmsStatements) {
      const via = st.Condition?.StringEquals?.['kms:ViaService'] as unknown[];
      expect(via, JSON.stringify(st)).toBeDefined();
      for (const v of via)
        expect(resolve(t, v)).toMatch(/^(dynamodb|secretsmanager|s3|sns)\.<AWS::Region>\.amazonaws\.com$/);
    }
  });

  it('each function may write only to its own log group', () => {
    for (const [fnName, role] of [
      ['docket-dev-evaluate', evaluateRole],
      ['docket-dev-checkpoint', checkpointRole],
    ] as const) {
      const logGroup = t.Resources[functionId(t, fnName)].Properties.LoggingConfig.LogGroup.Ref as string;
      const logs = roleStatements(t, role).filter((s) => s.Action.some((a) => a.startsWith('logs:')));
      expect(logs.flatMap((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [logGroup, 'Arn'] }]);
    }
  });

  it('the checkpoint role may only create objects under the checkpoint prefix of the export bucket', () => {
    const s3 = roleStatements(t, checkpointRole).filter((s) => s.Action.some((a) => a.startsWith('s3:')));
    expect(s3.flatMap((s) => s.Action)).toEqual(['s3:PutObject']);
    expect(resolve(t, s3[0]!.Resource[0])).toMatch(/^CheckpointsExport[0-9A-F]+\.Arn\/checkpoints\/\*$/);
    expect(roleStatements(t, evaluateRole).some((s) => s.Action.some((a) => a.startsWith('s3:')))).toBe(false);
  });
});
