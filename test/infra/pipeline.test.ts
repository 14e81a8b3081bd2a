import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { App, Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DocketConfigError, resolveConfig } from '../../infra/config.js';
import { DocketPipeline } from '../../infra/docket-pipeline.js';
import { DocketPipelineError } from '../../infra/docket-pipeline-error.js';
import { PIPELINE_ID_IN_STACK } from '../../infra/docket-stack.js';
import { DOCKET_FEATURE_FLAGS } from '../../infra/feature-flags.js';
import { cdkJsonFeatureFlags } from '../../infra/synth.js';
import { ADMIN_ARN, allowed, identityAllows, resourceDenials } from './policy-sim.js';
import { queueId, tableId, template, type Cfn } from './template.js';

/**
 * The logical ids (and types) of every resource and output DocketStack synthesized before it became a thin user of
 * DocketPipeline. A changed logical id would make CloudFormation replace the resource — a table with the ledger in it.
 */
const PINNED = JSON.parse(readFileSync(new URL('./logical-ids.json', import.meta.url), 'utf8')) as Record<
  string,
  { resources: Record<string, string>; outputs: string[] }
>;

describe('DocketStack keeps its logical ids', () => {
  for (const stage of ['dev', 'local']) {
    it(`the ${stage} stage synthesizes exactly the pinned resources and outputs, each under its old logical id`, () => {
      const t = template({ stage });
      const resources = Object.fromEntries(Object.entries<Cfn>(t.Resources).map(([id, r]) => [id, r.Type]));
      expect(resources).toEqual(PINNED[stage]!.resources);
      expect(Object.keys(t.Outputs as Cfn).sort()).toEqual(PINNED[stage]!.outputs);
    });
  }

  it('the stack holds its pipeline under the one construct id CDK leaves out of logical ids', () => {
    // Under any other id every logical id would change (the mutation the pin above catches).
    // (Event source mappings' ids also name the queue's stack, so the plain stack is named as the stage's is.)
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'Docket-dev');
    new DocketPipeline(stack, PIPELINE_ID_IN_STACK, {});
    const ids = Object.keys(app.synth().getStackByName(stack.stackName).template.Resources as Cfn);
    expect(PIPELINE_ID_IN_STACK).toBe('Default');
    expect(ids.sort()).toEqual(Object.keys(PINNED['dev']!.resources).sort());
  });
});

/** A team's stack: its own queue, role and Lambda next to a DocketPipeline (bundling off: unit tests). */
function teamStack(props: ConstructorParameters<typeof DocketPipeline>[2] = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Team');
  const docket = new DocketPipeline(stack, 'Docket', props);
  return { app, stack, docket };
}

describe('DocketPipeline feature flags', () => {
  it('are the flags of cdk.json, so the construct in a team’s app synthesizes what this repository reviewed', () => {
    expect(DOCKET_FEATURE_FLAGS).toEqual(cdkJsonFeatureFlags());
  });

  it('hold inside the pipeline even in an app that sets none, or sets one the other way', () => {
    const app = new App({
      context: { 'aws:cdk:bundling-stacks': [], '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': false },
    });
    const docket = new DocketPipeline(new Stack(app, 'Team'), 'Docket');
    expect(docket.checkpoints.bucket.node.tryGetContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy')).toBe(true);
    expect(app.node.tryGetContext('@aws-cdk/aws-iam:minimizePolicies')).toBeUndefined();
  });
});

describe('DocketPipeline props', () => {
  it('are validated as cdk.json context is: the same problems, every one of them, as a DocketConfigError', () => {
    const bad = { logCount: 0, batchSize: 11, routes: [{ kind: 'queue' as const, name: 'X', queue: 'Bad Key' }] };
    let expected: DocketConfigError | undefined;
    try {
      resolveConfig(bad);
    } catch (e) {
      expected = e as DocketConfigError;
    }
    expect(expected?.problems.length).toBeGreaterThanOrEqual(3);
    const thrown = (() => {
      try {
        teamStack(bad);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(DocketConfigError);
    expect((thrown as DocketConfigError).code).toBe('invalid-config');
    expect((thrown as DocketConfigError).problems).toEqual(expected!.problems);
  });

  it('take the stage defaults for whatever is left out, and name every resource after the stage', () => {
    const { docket } = teamStack({ stage: 'team', logCount: 2 });
    expect(docket.config).toEqual(resolveConfig({ stage: 'team', logCount: 2 }));
    expect(docket.names.intake.queue).toBe('docket-team-intake');
  });

  it('expose the intake queue, the rejects queue, each route queue and the results topic; an unknown route key is a typed error', () => {
    const { stack, docket } = teamStack();
    const name = (q: sqs.IQueue) => (q.node.defaultChild as sqs.CfnQueue).queueName;
    expect(name(docket.intakeQueue)).toBe('docket-dev-intake');
    expect(name(docket.rejectsQueue)).toBe('docket-dev-rejects');
    expect(name(docket.routeQueue('review'))).toBe('docket-dev-route-review');
    expect(name(docket.routeDeadLetterQueue('review'))).toBe('docket-dev-route-review-dlq');
    expect(stack.resolve(docket.resultsTopic.topicName)).toEqual({
      'Fn::GetAtt': [stack.getLogicalId(docket.results.topic.node.defaultChild as never), 'TopicName'],
    });
    expect(() => docket.routeQueue('nope')).toThrow(DocketPipelineError);
    expect(() =>
      docket.grantConsumeRoute('nope', new iam.Role(stack, 'R', { assumedBy: new iam.AccountRootPrincipal() })),
    ).toThrow(expect.objectContaining({ code: 'unknown-route-queue' }));
  });
});

describe('DocketPipeline grants, judged with the stack’s own Deny policies', () => {
  const { app, stack, docket } = teamStack();
  const role = (id: string) => new iam.Role(stack, id, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  const producer = role('Producer');
  const consumer = role('Consumer');
  const auditor = role('Auditor');
  docket.grantSubmit(producer);
  docket.grantConsumeRoute('review', consumer);
  docket.grantAudit(auditor);
  const t = app.synth().getStackByName(stack.stackName).template as Cfn;
  const id = (r: iam.Role) => stack.getLogicalId(r.node.defaultChild as iam.CfnRole);
  const q = (name: string) => queueId(t, name);

  it('grantSubmit lets the grantee send to the intake queue and nothing else', () => {
    const p = id(producer);
    expect(allowed(t, { principal: p, action: 'sqs:SendMessage', resource: q('docket-dev-intake') })).toBe(true);
    expect(allowed(t, { principal: p, action: 'sqs:GetQueueUrl', resource: q('docket-dev-intake') })).toBe(true);
    expect(allowed(t, { principal: p, action: 'sqs:ReceiveMessage', resource: q('docket-dev-intake') })).toBe(false);
    expect(allowed(t, { principal: p, action: 'sqs:SendMessage', resource: q('docket-dev-route-review') })).toBe(false);
    expect(allowed(t, { principal: p, action: 'sqs:SendMessage', resource: q('docket-dev-intake-dlq') })).toBe(false);
  });

  it('grantConsumeRoute lets the grantee receive, extend and delete on its route queue and dead-letter to its DLQ', () => {
    const c = id(consumer);
    const review = q('docket-dev-route-review');
    for (const action of [
      'sqs:ReceiveMessage',
      'sqs:DeleteMessage',
      'sqs:ChangeMessageVisibility',
      'sqs:GetQueueAttributes',
    ])
      expect(allowed(t, { principal: c, action, resource: review }), action).toBe(true);
    expect(allowed(t, { principal: c, action: 'sqs:SendMessage', resource: q('docket-dev-route-review-dlq') })).toBe(
      true,
    );
    // Another team's route stays closed.
    expect(allowed(t, { principal: c, action: 'sqs:ReceiveMessage', resource: q('docket-dev-route-oversight') })).toBe(
      false,
    );
  });

  it('a route consumer still cannot send to its route queue: the queue policy denies everyone but the deliver role', () => {
    const c = id(consumer);
    const req = { principal: c, action: 'sqs:SendMessage', resource: q('docket-dev-route-review') };
    expect(allowed(t, req)).toBe(false);
    expect(resourceDenials(t, req).map((s) => s.Sid)).toContain('DenySendExceptDeliverRole');
  });

  it('grantAudit is read-only: the ledger can be queried, never written, even where an identity policy would allow it', () => {
    const a = id(auditor);
    const ledger = tableId(t, 'docket-dev-ledger');
    expect(allowed(t, { principal: a, action: 'dynamodb:Query', resource: ledger, leadingKey: 'log#dev-0' })).toBe(
      true,
    );
    expect(identityAllows(t, a, { action: 'dynamodb:PutItem', resource: ledger, leadingKey: 'log#dev-0' })).toBe(false);
    expect(
      allowed(t, { principal: ADMIN_ARN, action: 'dynamodb:UpdateItem', resource: ledger, leadingKey: 'log#dev-0' }),
    ).toBe(false);
  });

  it('grantAudit reads the rejects queue, for the reasons of requests the ledger could not record, and cannot send, delete or purge there (ADR 0492)', () => {
    const a = id(auditor);
    const rejects = q('docket-dev-rejects');
    for (const action of ['sqs:ReceiveMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'])
      expect(allowed(t, { principal: a, action, resource: rejects }), action).toBe(true);
    for (const action of ['sqs:SendMessage', 'sqs:DeleteMessage', 'sqs:PurgeQueue', 'sqs:ChangeMessageVisibility'])
      expect(allowed(t, { principal: a, action, resource: rejects }), action).toBe(false);
    // Nor does it reach either DLQ's send, which no principal has (ADR 0455).
    expect(allowed(t, { principal: a, action: 'sqs:SendMessage', resource: q('docket-dev-intake-dlq') })).toBe(false);
  });

  it('each grant attaches the pipeline’s own reviewed policy, once however often it is asked for', () => {
    const again = docket.grantSubmit(producer);
    expect(again).toBe(docket.intake.requesterPolicy);
    const attachedRoles = (policy: iam.ManagedPolicy) =>
      (stack.resolve((policy.node.defaultChild as iam.CfnManagedPolicy).roles) as unknown[]).map((r) =>
        JSON.stringify(r),
      );
    expect(attachedRoles(docket.intake.requesterPolicy)).toEqual([JSON.stringify({ Ref: id(producer) })]);
  });

  it('a grantee that is no role, user or group is refused with a typed error rather than granted nothing', () => {
    expect(() => docket.grantSubmit(new iam.AccountRootPrincipal())).toThrow(
      expect.objectContaining({ code: 'grantee-not-attachable' }),
    );
  });
});

describe('DocketPipeline in a team’s stack, under cdk-nag', () => {
  it('reports no AwsSolutions finding next to the team’s own queue and a consumer Lambda wired to a route queue', () => {
    const { app, stack, docket } = teamStack({ trustPolicy: '{"keys":[]}', alarmEmail: 'oncall@example.org' });
    const dlq = new sqs.Queue(stack, 'OwnDlq', { enforceSSL: true, encryption: sqs.QueueEncryption.SQS_MANAGED });
    new sqs.Queue(stack, 'OwnQueue', {
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
    });
    const role = new iam.Role(stack, 'ConsumerRole', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    const fn = new lambda.Function(stack, 'Consumer', {
      runtime: lambda.Runtime.NODEJS_LATEST,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({ batchItemFailures: [] });'),
      role,
      timeout: Duration.seconds(30),
    });
    fn.addEventSource(new SqsEventSource(docket.routeQueue('review'), { reportBatchItemFailures: true }));
    docket.grantConsumeRoute('review', fn);
    docket.grantSubmit(role);
    const report = new AwsSolutionsChecks(app).validateScope(app);
    expect(
      report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
    ).toEqual([]);
  });
});
