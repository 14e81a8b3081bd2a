import { describe, expect, it } from 'vitest';
import { Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { buildDocketApp } from '../../infra/synth.js';

function acknowledgments(root: IConstruct): Array<{ path: string; data: unknown }> {
  return root.node
    .findAll()
    .flatMap((c) =>
      c.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .map((m) => ({ path: c.node.path, data: m.data })),
    );
}

describe('cdk-nag AwsSolutions', () => {
  it('reports no unacknowledged finding on the stack, with routes and a trust policy configured', () => {
    const { app } = buildDocketApp({
      trustPolicy: '{"keys":[]}',
      alarmEmail: 'oncall@example.org',
      requestArchiveTtlAttribute: 'expiresAt',
    });
    const report = new AwsSolutionsChecks(app).validateScope(app);
    expect(
      report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
    ).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('acknowledges exactly the findings the design accepts, each with a reason of at least a sentence', () => {
    const { app, stack } = buildDocketApp();
    const acks = acknowledgments(app);
    const text = JSON.stringify(acks);
    expect(text).toContain('AwsSolutions-SMG4');
    expect(text).toContain('AwsSolutions-L1');
    expect(text).toMatch(/AwsSolutions-IAM5\[Resource::<CheckpointsExport[0-9A-F]+\.Arn>\/checkpoints\/\*\]/);
    expect(text).not.toMatch(/AwsSolutions-IAM5\[Action::/);
    for (const a of acks) {
      const reasons = Object.values(a.data as Record<string, string>);
      expect(reasons.length, a.path).toBe(1);
      for (const r of reasons) expect(r, a.path).toMatch(/^[A-Z].{80,}\.$/s);
    }
    // SMG4 on the secret, L1 on each function (the sequence and deliver functions too), IAM5 (checkpoint prefix) on the checkpoint role and the auditor policy,
    // IAM5 (own subscriptions, wait-queue prefix) on the results waiter policy.
    const inPipeline = `${stack.pipeline.node.path}/`;
    for (const a of acks) expect(a.path.startsWith(inPipeline), a.path).toBe(true);
    expect(acks.map((a) => a.path.slice(inPipeline.length)).sort()).toEqual(
      [
        'AuditAccess/Policy',
        'Checkpoints/Checkpoint/Function',
        'Checkpoints/Checkpoint/Role',
        'Deliverer/Deliver/Function',
        'Evaluator/Evaluate/Function',
        // SQS3 (no DLQ of its own, ADR 0492) on the rejects queue.
        'Rejects/Queue',
        'Results/WaiterPolicy',
        'Results/WaiterPolicy',
        'Sequencer/Sequence/Function',
        'SigningKey/Secret',
        // IAM5 (X-Ray's writes take no resource, ADR 0480) on each function's role.
        'Checkpoints/Checkpoint/Role',
        'Deliverer/Deliver/Role',
        'Evaluator/Evaluate/Role',
        'Sequencer/Sequence/Role',
      ].sort(),
    );
  });

  it('still catches a new violation: an unrotated secret added to the stack fails synthesis through Validations', () => {
    const { app, stack } = buildDocketApp();
    new secretsmanager.Secret(stack, 'Unreviewed');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-SMG4/);
  });
});
