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
const deliverRole = roleOfFunction(t, 'docket-dev-deliver');
const sequenceRole = roleOfFunction(t, 'docket-dev-sequence');
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

  it('no identity policy allows an action on every resource but the X-Ray writes active tracing needs', () => {
    const identity = allStatements.filter(({ source, st }) => source.kind === 'identity' && st.Effect === 'Allow');
    expect(identity.length).toBeGreaterThan(5);
    // X-Ray's two write actions take no resource-level permission (ADR 0480): they alone may name every resource.
    const xrayWrites = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];
    let traced = 0;
    for (const { st } of identity) {
      if (!st.Resource.includes('*')) continue;
      expect([...st.Action].sort(), JSON.stringify(st)).toEqual(xrayWrites);
      traced += 1;
    }
    expect(traced, 'every function role holds the X-Ray writes').toBe(4);
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
    for (const principal of [ADMIN_ARN, ROOT_ARN, evaluateRole, checkpointRole, deliverRole]) {
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

  it('only the evaluate, checkpoint and deliver roles hold PutItem on the ledger, each on its own key families', () => {
    const keys = ['log#dev-0', 'req#r1', 'mark#dev-0', 'ckpt#dev-0', 'note#dev-0', 'cosig#dev-0#4', 'other'];
    const puts = (role: string) =>
      keys.filter((k) => identityAllows(t, role, { action: 'dynamodb:PutItem', resource: ledger, leadingKey: k }));
    const holders = resourcesOfType(t, 'AWS::IAM::Role')
      .map(([id]) => id)
      .filter((role) => puts(role).length > 0);
    expect(holders.sort()).toEqual([checkpointRole, deliverRole, evaluateRole].sort());
    expect(puts(evaluateRole)).toEqual(['log#dev-0', 'req#r1']);
    expect(puts(checkpointRole)).toEqual(['ckpt#dev-0', 'note#dev-0']);
    expect(puts(deliverRole)).toEqual(['req#r1', 'mark#dev-0']);
  });

  it('the deliver role creates position and marker items (req#, mark#) only: the resource policy denies it an entry, a checkpoint or a note', () => {
    const put = (leadingKey: string) => ({
      principal: deliverRole,
      action: 'dynamodb:PutItem',
      resource: ledger,
      leadingKey,
    });
    for (const key of ['req#abc', 'mark#dev-0']) {
      expect(allowed(t, put(key)), key).toBe(true);
      // A writer role: DenyPutItemExceptWriterRoles lets it through on its own families.
      expect(resourceDenials(t, put(key)), key).toEqual([]);
    }
    for (const key of ['log#dev-0', 'ckpt#dev-0', 'note#dev-0', 'cosig#dev-0#4', 'other']) {
      expect(allowed(t, put(key)), key).toBe(false);
      // Denied by the table's resource policy, whatever an identity policy granted later would say.
      expect(
        resourceDenials(t, put(key)).map((s) => s.Sid),
        key,
      ).toContain('DenyPlacerOutsidePositionItems');
    }
    // Not vacuous: without its Deny, the resource policy no longer stops the deliver role writing an entry.
    const loose = structuredClone(t);
    const doc = loose.Resources[ledger].Properties.ResourcePolicy.PolicyDocument;
    doc.Statement = (doc.Statement as Cfn[]).filter((st) => st.Sid !== 'DenyPlacerOutsidePositionItems');
    expect(resourceDenials(loose, put('log#dev-0'))).toEqual([]);
  });

  it('the deliver role writes a position’s attributes only: a claim under req# is denied by its identity and the table', () => {
    const put = (attributes: string[]) => ({
      principal: deliverRole,
      action: 'dynamodb:PutItem',
      resource: ledger,
      leadingKey: 'req#abc',
      attributes,
    });
    expect(allowed(t, put(['pk', 'sk', 'logId', 'seq']))).toBe(true);
    expect(resourceDenials(t, put(['pk', 'sk', 'logId', 'seq']))).toEqual([]);
    // A claim item (adapters/dynamodb-ledger-store.ts putClaimIfAbsent) would fix another request's log.
    const claim = put(['pk', 'sk', 'logId', 'requestDigest', 'headBefore']);
    expect(allowed(t, claim)).toBe(false);
    expect(resourceDenials(t, claim).map((s) => s.Sid)).toContain('DenyPlacerAnythingButAPosition');
    // The evaluate role writes claims as before.
    expect(allowed(t, { ...claim, principal: evaluateRole })).toBe(true);
  });

  it('the deliver role writes a batch marker’s attributes only under mark#, and a marker’s nowhere else', () => {
    const put = (leadingKey: string, attributes: string[]) => ({
      principal: deliverRole,
      action: 'dynamodb:PutItem',
      resource: ledger,
      leadingKey,
      attributes,
    });
    const marker = ['pk', 'sk', 'seqs', 'requestIds'];
    expect(allowed(t, put('mark#dev-0', marker))).toBe(true);
    expect(resourceDenials(t, put('mark#dev-0', marker))).toEqual([]);
    // A position's attributes under mark#, or a marker's under req#: denied by its identity and by the table.
    for (const [key, attributes, sid] of [
      ['mark#dev-0', ['pk', 'sk', 'logId', 'seq'], 'DenyPlacerAnythingButAMarker'],
      ['req#abc', marker, 'DenyPlacerAnythingButAPosition'],
    ] as const) {
      expect(allowed(t, put(key, [...attributes])), key).toBe(false);
      expect(
        resourceDenials(t, put(key, [...attributes])).map((s) => s.Sid),
        key,
      ).toContain(sid);
    }
    // Not vacuous: without its Deny, the table no longer stops a position-shaped item under mark#.
    const loose = structuredClone(t);
    const doc = loose.Resources[ledger].Properties.ResourcePolicy.PolicyDocument;
    doc.Statement = (doc.Statement as Cfn[]).filter((st) => st.Sid !== 'DenyPlacerAnythingButAMarker');
    expect(resourceDenials(loose, put('mark#dev-0', ['pk', 'sk', 'logId', 'seq']))).toEqual([]);
  });

  it('the deliver role reads entries and markers (Query on log#, mark#) and nothing else of the ledger, and can neither update nor delete an item', () => {
    const req = (action: string, leadingKey?: string) => ({
      principal: deliverRole,
      action,
      resource: ledger,
      ...(leadingKey !== undefined ? { leadingKey } : {}),
    });
    // readEntries is one consistent Query of the log's items, readMarkers of its markers (adapters/dynamodb-ledger-store.ts).
    expect(allowed(t, req('dynamodb:Query', 'log#dev-0'))).toBe(true);
    expect(allowed(t, req('dynamodb:Query', 'mark#dev-0'))).toBe(true);
    for (const key of ['req#abc', 'ckpt#dev-0', 'note#dev-0'])
      expect(allowed(t, req('dynamodb:Query', key)), key).toBe(false);
    for (const key of ['log#dev-0', 'req#abc']) expect(allowed(t, req('dynamodb:GetItem', key)), key).toBe(false);
    expect(allowed(t, req('dynamodb:Scan'))).toBe(false);
    for (const action of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
      for (const key of ['req#abc', 'log#dev-0']) {
        expect(identityAllows(t, deliverRole, { action, resource: ledger, leadingKey: key }), `${action} ${key}`).toBe(
          false,
        );
        expect(resourceDenials(t, req(action, key)).length, `${action} ${key}`).toBeGreaterThan(0);
      }
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
    // A redelivered request's entry is found from the batch markers (ADR 0498): it reads them, never writes one.
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:Query', resource: ledger, leadingKey: 'mark#dev-0' }),
    ).toBe(true);
    expect(
      allowed(t, { principal: evaluateRole, action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'mark#dev-0' }),
    ).toBe(false);
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
  it('nobody can update or delete a published pack; the evaluate and deliver roles only read the registry', () => {
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
    // The deliver function loads target-only packs (a handoff's target): it reads, never writes.
    for (const action of ['dynamodb:GetItem', 'dynamodb:Query'])
      expect(allowed(t, { principal: deliverRole, action, resource: packs, leadingKey: 'pack#x' }), action).toBe(true);
    for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'])
      expect(allowed(t, { principal: deliverRole, action, resource: packs, leadingKey: 'pack#x' }), action).toBe(false);
    // …and never touches the request archive.
    for (const action of ['dynamodb:GetItem', 'dynamodb:PutItem'])
      expect(identityAllows(t, deliverRole, { action, resource: requests, leadingKey: 'request#d' }), action).toBe(
        false,
      );
  });

  it('nobody, a publisher included, may rewrite or delete an alias or closure item by any action the table policy can name', () => {
    // ADR 0450: IAM has no condition on an item's existence, so PutItem (a conditional create when `docket publish`
    // sends it) stays; every other way to change a stored item is denied to every principal by the table's policy.
    const keys = ['alias#refund-check@1.0.0', 'graph-alias#g@1.0.0', `graph-closure#${'a'.repeat(64)}`, 'pack#x'];
    for (const principal of [ADMIN_ARN, ROOT_ARN, evaluateRole, deliverRole])
      for (const action of [
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:BatchWriteItem',
        'dynamodb:PartiQLUpdate',
        'dynamodb:PartiQLDelete',
      ])
        for (const leadingKey of keys)
          expect(allowed(t, { principal, action, resource: packs, leadingKey }), `${principal} ${action}`).toBe(false);
    const publisher = resourcesOfType(t, 'AWS::IAM::ManagedPolicy').filter(([, r]) =>
      String((r as { Properties: { ManagedPolicyName?: string } }).Properties.ManagedPolicyName).endsWith('-publisher'),
    );
    expect(publisher).toHaveLength(1);
    const statements = (
      publisher[0]![1] as { Properties: { PolicyDocument: { Statement: { Action: string | string[] }[] } } }
    ).Properties.PolicyDocument.Statement;
    const actions = statements.flatMap((st) => (Array.isArray(st.Action) ? st.Action : [st.Action]));
    expect(actions.filter((a) => a.startsWith('dynamodb:')).sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
    ]);
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
    // The deliver function signs nothing (docs/adr/0404-delivery-stage.md).
    expect(allowed(t, { principal: deliverRole, action: 'secretsmanager:GetSecretValue', resource: secretId })).toBe(
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
    for (const p of [evaluateRole, deliverRole, purgeRole, ADMIN_ARN, ROOT_ARN])
      expect(allowed(t, { principal: p, action: 'kms:Sign', resource: checkpointKeyId }), p).toBe(false);
    // Without the key policy's deny, an administrator could sign: the deny is what stops it (not vacuous).
    expect(resourceDenials(t, { principal: ADMIN_ARN, action: 'kms:Sign', resource: checkpointKeyId })).toHaveLength(1);
  });

  it('the checkpoint role reads only the trust policy parameter from SSM and writes no parameter', () => {
    const ssm = roleStatements(t, checkpointRole).filter((s) => s.Action.some((a) => a.startsWith('ssm:')));
    expect(ssm.flatMap((s) => s.Action)).toEqual(['ssm:GetParameter']);
    expect(JSON.stringify(ssm[0]!.Resource)).toContain('docket/dev/trust-policy');
    for (const role of [evaluateRole, deliverRole])
      expect(roleStatements(t, role).some((s) => s.Action.some((a) => a.startsWith('ssm:')))).toBe(false);
  });
});

describe('the results topic', () => {
  const topic = resourcesOfType(t, 'AWS::SNS::Topic').find(
    ([, r]) => r.Properties.TopicName === 'docket-dev-results',
  )![0];

  it('only the deliver role may publish: administrators, the root user, requesters, the evaluate and checkpoint roles are denied', () => {
    const req = { action: 'sns:Publish', resource: topic };
    expect(allowed(t, { ...req, principal: deliverRole })).toBe(true);
    const requesterLike = 'arn:aws:iam::111122223333:role/requester';
    for (const outsider of [ADMIN_ARN, ROOT_ARN, requesterLike, evaluateRole, checkpointRole, sequenceRole, purgeRole])
      expect(allowed(t, { ...req, principal: outsider }), outsider).toBe(false);
    // The evaluate role no longer holds the grant, and the topic policy would refuse it if it did (ADR 0404).
    expect(identityAllows(t, evaluateRole, req)).toBe(false);
    expect(resourceDenials(t, { ...req, principal: evaluateRole }).map((s) => s.Sid)).toEqual([
      'DenyPublishExceptDeliverRole',
    ]);
    const publishers = resourcesOfType(t, 'AWS::IAM::Role')
      .map(([id]) => id)
      .filter((role) => identityAllows(t, role, req));
    expect(publishers).toEqual([deliverRole]);
    // Subscribing stays open to whom IAM allows it (the waiter policy): the deny names Publish only.
    expect(allowed(t, { action: 'sns:Subscribe', resource: topic, principal: ADMIN_ARN })).toBe(true);
  });

  it('is encrypted with a key of its own, which the deliver role may use only through SNS and the evaluate role not at all', () => {
    const keyRef = JSON.stringify(t.Resources[topic].Properties.KmsMasterKeyId);
    expect(keyRef).toMatch(/ResultsTopicKey/);
    const keyUseOf = (role: string) =>
      roleStatements(t, role).filter((s) => JSON.stringify(s.Resource).includes('ResultsTopicKey'));
    expect(keyUseOf(evaluateRole)).toEqual([]);
    const keyUse = keyUseOf(deliverRole);
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

  const allQueues = resourcesOfType(t, 'AWS::SQS::Queue').map(([, r]) => r.Properties.QueueName as string);
  const handoffQueues = [
    'docket-dev-route-review',
    'docket-dev-route-oversight',
    'docket-dev-route-case-management',
    'docket-dev-unrouted',
  ];

  it('the evaluate role sends to the delivery queue, the FIFO ledger queue and the rejects queue only: never to a handoff queue, the intake queue or any DLQ', () => {
    expect(allQueues).toHaveLength(15);
    expect(allQueues.filter((q) => sends(evaluateRole, q)).sort()).toEqual(
      ['docket-dev-delivery', 'docket-dev-ledger.fifo', 'docket-dev-rejects'].sort(),
    );
    // The handoffs are the deliver function's to send now (docs/adr/0404-delivery-stage.md).
    for (const q of handoffQueues)
      expect(allowed(t, { principal: evaluateRole, action: 'sqs:SendMessage', resource: queueId(t, q) }), q).toBe(
        false,
      );
    expect(
      allowed(t, { principal: evaluateRole, action: 'sqs:SendMessage', resource: queueId(t, 'docket-dev-delivery') }),
    ).toBe(true);
  });

  it('the deliver role sends to every handoff queue and its own DLQ only: never to the delivery queue, the intake or ledger queue, or a route DLQ', () => {
    expect(allQueues.filter((q) => sends(deliverRole, q)).sort()).toEqual(
      [...handoffQueues, 'docket-dev-delivery-dlq'].sort(),
    );
    // A refused job goes to the delivery DLQ with its reason, sent by the function itself.
    expect(
      allowed(t, {
        principal: deliverRole,
        action: 'sqs:SendMessage',
        resource: queueId(t, 'docket-dev-delivery-dlq'),
      }),
    ).toBe(true);
  });

  it('only the deliver role may send to a handoff queue: administrators, the root user, consumers and the evaluate role are denied', () => {
    const consumerRoleLike = 'arn:aws:iam::111122223333:role/oversight-team';
    for (const q of ['docket-dev-route-oversight', 'docket-dev-route-review', 'docket-dev-unrouted']) {
      const req = { action: 'sqs:SendMessage', resource: queueId(t, q) };
      expect(allowed(t, { ...req, principal: deliverRole }), q).toBe(true);
      for (const outsider of [
        ADMIN_ARN,
        ROOT_ARN,
        consumerRoleLike,
        evaluateRole,
        checkpointRole,
        sequenceRole,
        purgeRole,
      ])
        expect(allowed(t, { ...req, principal: outsider }), `${outsider} on ${q}`).toBe(false);
      // The queue policy itself refuses the evaluate role, not only its missing grant.
      expect(
        resourceDenials(t, { ...req, principal: evaluateRole }).map((s) => s.Sid),
        q,
      ).toEqual(['DenySendExceptDeliverRole']);
      // Reading stays as it was: the deny names SendMessage only.
      expect(allowed(t, { action: 'sqs:ReceiveMessage', resource: queueId(t, q), principal: ADMIN_ARN })).toBe(true);
    }
    // The intake queue keeps its requesters: the restriction is on handoff queues only.
    expect(
      allowed(t, { action: 'sqs:SendMessage', resource: queueId(t, 'docket-dev-intake'), principal: ADMIN_ARN }),
    ).toBe(true);
  });

  it('only the evaluate role may send to the delivery queue: administrators, the root user and the deliver role itself are denied', () => {
    const delivery = queueId(t, 'docket-dev-delivery');
    const req = { action: 'sqs:SendMessage', resource: delivery };
    expect(allowed(t, { ...req, principal: evaluateRole })).toBe(true);
    for (const outsider of [ADMIN_ARN, ROOT_ARN, deliverRole, checkpointRole, sequenceRole, purgeRole]) {
      expect(allowed(t, { ...req, principal: outsider }), outsider).toBe(false);
      expect(
        resourceDenials(t, { ...req, principal: outsider }).map((s) => s.Sid),
        outsider,
      ).toEqual(['DenySendExceptEvaluateRole']);
    }
    // Consuming it stays the event source's: the deny names SendMessage only.
    expect(allowed(t, { action: 'sqs:ReceiveMessage', resource: delivery, principal: deliverRole })).toBe(true);
  });

  it('no principal may send to either DLQ of the request path — administrators, the root user and every role of the stack alike: only SQS’s redrive fills them (ADR 0492)', () => {
    const everyRole = resourcesOfType(t, 'AWS::IAM::Role').map(([id]) => id);
    expect(everyRole).toEqual(expect.arrayContaining([evaluateRole, deliverRole, checkpointRole, sequenceRole]));
    for (const name of ['docket-dev-intake-dlq', 'docket-dev-ledger-dlq.fifo']) {
      const dlq = queueId(t, name);
      // SendMessageBatch is authorized as sqs:SendMessage, so this one action covers both.
      for (const who of [ADMIN_ARN, ROOT_ARN, ...everyRole]) {
        const req = { action: 'sqs:SendMessage', resource: dlq, principal: who };
        expect(allowed(t, req), `${who} ${name}`).toBe(false);
        expect(
          resourceDenials(t, req).map((s) => s.Sid),
          `${who} ${name}`,
        ).toEqual(['DenySendToEveryone']);
      }
      // Reading them stays the operator's: the deny names SendMessage only.
      expect(allowed(t, { action: 'sqs:ReceiveMessage', resource: dlq, principal: ADMIN_ARN })).toBe(true);
    }
  });

  it('the deny on each DLQ of the request path has no condition and no exception, so no principal escapes it', () => {
    for (const name of ['docket-dev-intake-dlq', 'docket-dev-ledger-dlq.fifo']) {
      const dlq = queueId(t, name);
      const policies = resourcesOfType(t, 'AWS::SQS::QueuePolicy').filter(([, r]) =>
        (r.Properties.Queues as Cfn[]).some((q) => (q as { Ref?: string }).Ref === dlq),
      );
      const denies = policies.flatMap(([, r]) =>
        ((r.Properties.PolicyDocument as Cfn).Statement as Cfn[]).filter((st) => st.Sid === 'DenySendToEveryone'),
      );
      expect(denies, name).toHaveLength(1);
      expect(denies[0], name).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 'sqs:SendMessage' });
      expect(denies[0]!.Condition, name).toBeUndefined();
      expect(denies[0]!.NotPrincipal, name).toBeUndefined();
    }
  });

  it('only the evaluate role may send to the rejects queue, and it may only send there: it cannot receive, delete or purge its own rejects (ADR 0492)', () => {
    const rejects = queueId(t, 'docket-dev-rejects');
    expect(allowed(t, { action: 'sqs:SendMessage', resource: rejects, principal: evaluateRole })).toBe(true);
    for (const who of [ADMIN_ARN, ROOT_ARN, deliverRole, checkpointRole, sequenceRole, purgeRole]) {
      const req = { action: 'sqs:SendMessage', resource: rejects, principal: who };
      expect(allowed(t, req), who).toBe(false);
      expect(
        resourceDenials(t, req).map((s) => s.Sid),
        who,
      ).toEqual(['DenySendExceptEvaluate']);
    }
    for (const action of [
      'sqs:ReceiveMessage',
      'sqs:DeleteMessage',
      'sqs:ChangeMessageVisibility',
      'sqs:PurgeQueue',
      'sqs:SetQueueAttributes',
    ])
      expect(allowed(t, { action, resource: rejects, principal: evaluateRole }), action).toBe(false);
    const rejectsGrants = roleStatements(t, evaluateRole).filter((s) =>
      s.Resource.some((r) => JSON.stringify(r).includes(rejects)),
    );
    expect(rejectsGrants.map((s) => s.Action)).toEqual([['sqs:SendMessage']]);
  });

  it('only the deliver role may take jobs off the delivery queue: administrators, the root user and the evaluate role cannot receive, delete or purge', () => {
    const delivery = queueId(t, 'docket-dev-delivery');
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:PurgeQueue']) {
      for (const outsider of [ADMIN_ARN, ROOT_ARN, evaluateRole, sequenceRole])
        expect(
          resourceDenials(t, { action, resource: delivery, principal: outsider }).map((s) => s.Sid),
          `${outsider} ${action}`,
        ).toContain('DenyConsumeExceptDeliverRole');
      expect(resourceDenials(t, { action, resource: delivery, principal: deliverRole }), action).toEqual([]);
    }
  });

  it('only the sequence role consumes the intake queue, only the evaluate role the FIFO ledger queue, only the deliver role the delivery queue, and the checkpoint role consumes no queue', () => {
    const intake = queueId(t, 'docket-dev-intake');
    const ledgerQueue = queueId(t, 'docket-dev-ledger.fifo');
    const delivery = queueId(t, 'docket-dev-delivery');
    expect(identityAllows(t, sequenceRole, { action: 'sqs:DeleteMessage', resource: intake })).toBe(true);
    expect(identityAllows(t, sequenceRole, { action: 'sqs:ReceiveMessage', resource: intake })).toBe(true);
    expect(identityAllows(t, evaluateRole, { action: 'sqs:ReceiveMessage', resource: ledgerQueue })).toBe(true);
    expect(identityAllows(t, evaluateRole, { action: 'sqs:DeleteMessage', resource: ledgerQueue })).toBe(true);
    expect(identityAllows(t, evaluateRole, { action: 'sqs:ReceiveMessage', resource: intake })).toBe(false);
    // The checkpoint role reads the request path's queues for the archive cross-check, and takes nothing off them.
    for (const action of ['sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:PurgeQueue', 'sqs:SendMessage'])
      expect(
        roleStatements(t, checkpointRole).some((s) => s.Action.includes(action)),
        action,
      ).toBe(false);
    const receives = (role: string) =>
      roleStatements(t, role)
        .filter((s) => s.Action.includes('sqs:ReceiveMessage'))
        .flatMap((s) => s.Resource);
    expect(receives(evaluateRole)).toEqual([{ 'Fn::GetAtt': [ledgerQueue, 'Arn'] }]);
    expect(receives(sequenceRole)).toEqual([{ 'Fn::GetAtt': [intake, 'Arn'] }]);
    expect(receives(deliverRole)).toEqual([{ 'Fn::GetAtt': [delivery, 'Arn'] }]);
    const consumers = resourcesOfType(t, 'AWS::IAM::Role')
      .map(([id]) => id)
      .filter((role) => identityAllows(t, role, { action: 'sqs:ReceiveMessage', resource: delivery }));
    expect(consumers).toEqual([deliverRole]);
  });

  it('the checkpoint role reads what the archive cross-check needs and no more: Scan of the request archive, the path queues’ attributes, receives of their DLQs (ADR 0487)', () => {
    const archive = requests;
    const sqsGrants = roleStatements(t, checkpointRole)
      .filter((s) => s.Action.some((a) => a.startsWith('sqs:')))
      .map((s) => [s.Action, s.Resource.map((r) => resolve(t, r))]);
    expect(sqsGrants).toEqual([
      [
        ['sqs:GetQueueAttributes'],
        [`${queueId(t, 'docket-dev-intake')}.Arn`, `${queueId(t, 'docket-dev-ledger.fifo')}.Arn`],
      ],
      [
        ['sqs:ReceiveMessage'],
        [`${queueId(t, 'docket-dev-intake-dlq')}.Arn`, `${queueId(t, 'docket-dev-ledger-dlq.fifo')}.Arn`],
      ],
    ]);
    expect(allowed(t, { principal: checkpointRole, action: 'dynamodb:Scan', resource: archive })).toBe(true);
    for (const action of ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:Query'])
      expect(allowed(t, { principal: checkpointRole, action, resource: archive }), action).toBe(false);
    // The function's environment names exactly what the grants cover (infra/function-environment.ts).
    const env = t.Resources[functionId(t, 'docket-dev-checkpoint')]!.Properties.Environment.Variables as Cfn;
    const read = Object.entries(env).filter(([k]) => /REQUESTS_TABLE|_QUEUE_URL|_DLQ_URL/.test(k));
    expect(Object.fromEntries(read.map(([k, v]) => [k, resolve(t, v)]))).toEqual({
      REQUESTS_TABLE: 'docket-dev-requests',
      INTAKE_QUEUE_URL: 'url:docket-dev-intake',
      LEDGER_QUEUE_URL: 'url:docket-dev-ledger.fifo',
      INTAKE_DLQ_URL: 'url:docket-dev-intake-dlq',
      LEDGER_DLQ_URL: 'url:docket-dev-ledger-dlq.fifo',
    });
  });

  it('the sequence role holds no key, no table and no queue but sending to the FIFO ledger queue and consuming intake', () => {
    const actions = roleStatements(t, sequenceRole).flatMap((s) => s.Action);
    // Beside its logs, its traces (X-Ray's writes, ADR 0480).
    expect(actions.filter((a) => !a.startsWith('sqs:') && !a.startsWith('logs:')).sort()).toEqual([
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    const ledgerQueue = queueId(t, 'docket-dev-ledger.fifo');
    const sends = roleStatements(t, sequenceRole)
      .filter((s) => s.Action.includes('sqs:SendMessage'))
      .flatMap((s) => s.Resource);
    expect(sends).toEqual([{ 'Fn::GetAtt': [ledgerQueue, 'Arn'] }]);
  });
});

describe('the deliver role (docs/adr/0404-delivery-stage.md)', () => {
  it('holds exactly what the deliver function calls: Query and PutItem on the ledger, registry reads, handoff and DLQ sends, Publish, and its event source', () => {
    const statements = roleStatements(t, deliverRole);
    expect(statements.every((s) => s.Effect === 'Allow')).toBe(true);
    expect([...new Set(statements.flatMap((s) => s.Action))].sort()).toEqual(
      [
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'kms:Decrypt',
        'kms:DescribeKey',
        'kms:Encrypt',
        'kms:GenerateDataKey',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'sns:Publish',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        'sqs:SendMessage',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ].sort(),
    );
    // No secret, no parameter, no bucket, no signing: the entry key and the checkpoint key stay out of its reach.
    const dynamo = statements.filter((s) => s.Action.some((a) => a.startsWith('dynamodb:')));
    expect([...new Set(dynamo.flatMap((s) => s.Resource).map((r) => resolve(t, r)))].sort()).toEqual(
      [`${ledger}.Arn`, `${packs}.Arn`].sort(),
    );
    // The ledger's data key and the results topic's key, each through its service only.
    const keys = statements.filter((s) => s.Action.some((a) => a.startsWith('kms:')));
    expect(
      keys.map((s) => [s.Resource.map((r) => resolve(t, r).replace(/[0-9A-F]{8}\.Arn$/, '')), s.Condition]),
    ).toEqual([
      [
        ['DataKey'],
        {
          StringEquals: {
            'kms:ViaService': [{ 'Fn::Join': ['', ['dynamodb.', { Ref: 'AWS::Region' }, '.amazonaws.com']] }],
          },
        },
      ],
      [
        ['ResultsTopicKey'],
        {
          StringEquals: {
            'kms:ViaService': [{ 'Fn::Join': ['', ['sns.', { Ref: 'AWS::Region' }, '.amazonaws.com']] }],
          },
        },
      ],
    ]);
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
  it('reads the ledger, registry, archive, exported checkpoints, trust policy and rejects queue, and writes nothing', () => {
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
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        'ssm:GetParameter',
      ].sort(),
    );
    // The queue it reads is the rejects queue alone, for the reasons of the requests the ledger could not record.
    expect(
      statements
        .filter((s) => s.Action.some((a) => a.startsWith('sqs:')))
        .flatMap((s) => s.Resource.map((r) => resolve(t, r))),
    ).toEqual([`${queueId(t, 'docket-dev-rejects')}.Arn`]);
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
      ['docket-dev-sequence', sequenceRole],
      ['docket-dev-deliver', deliverRole],
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
    for (const role of [evaluateRole, deliverRole])
      expect(roleStatements(t, role).some((s) => s.Action.some((a) => a.startsWith('s3:')))).toBe(false);
  });
});
