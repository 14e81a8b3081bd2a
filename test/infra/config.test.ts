import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { repoRoot } from '../../infra/paths.js';
import {
  DocketConfigError,
  configFromContext,
  defaultConfig,
  resolveConfig,
  routeTargetKey,
  validateConfig,
  type DocketConfig,
} from '../../infra/config.js';
import { DEFAULT_WORK_BUDGET, MAX_WORK_BUDGET } from '../../core/evaluate/limits.js';
import { LOG_ID_PATTERN } from '../../core/ledger/entries/entry-rules.js';
import { routeKey } from '../../core/pipeline/handoff-plan.js';
import { deliverEnvironment, evaluateEnvironment } from '../../infra/function-environment.js';
import { resourceNames, routeQueueKeys } from '../../infra/names.js';

const problems = (overrides: Partial<DocketConfig>) => validateConfig({ ...defaultConfig('dev'), ...overrides });

describe('configuration', () => {
  it('the defaults of any well-formed stage are deployable', () => {
    for (const stage of ['dev', 'prod', 'eu-test-2']) expect(validateConfig(defaultConfig(stage))).toEqual([]);
  });

  it('refuses fewer than five receives before dead-lettering', () => {
    expect(problems({ maxReceiveCount: 4 })).toEqual([expect.stringMatching(/^maxReceiveCount/)]);
    expect(problems({ maxReceiveCount: 5 })).toEqual([]);
  });

  it('refuses a visibility timeout under six times the function timeout, and one over SQS’s twelve hours', () => {
    expect(problems({ visibilityTimeoutFactor: 5 })).toEqual([expect.stringMatching(/^visibilityTimeoutFactor/)]);
    expect(problems({ functionTimeoutSeconds: 900, visibilityTimeoutFactor: 60 })).toEqual([
      expect.stringMatching(/43200/),
    ]);
  });

  it('refuses batches above ten even with a batching window: the FIFO ledger queue’s event source takes ten at most', () => {
    expect(problems({ batchSize: 11 })).toEqual([expect.stringMatching(/^batchSize/)]);
    expect(problems({ batchSize: 500, maxBatchingWindowSeconds: 2 })).toEqual([expect.stringMatching(/^batchSize/)]);
    expect(problems({ batchSize: 10, maxBatchingWindowSeconds: 2 })).toEqual([]);
  });

  it('refuses an evaluate concurrency above the number of logs: FIFO runs one batch per log at a time', () => {
    expect(problems({ logCount: 8, maximumConcurrency: 9 })).toEqual([expect.stringMatching(/^maximumConcurrency/)]);
    expect(problems({ logCount: 8, maximumConcurrency: 8 })).toEqual([]);
    expect(problems({ logCount: 8, maximumConcurrency: 2 })).toEqual([]);
    // AWS's minimum is 2, so one log still deploys with 2 (the second instance idles).
    expect(problems({ logCount: 1, maximumConcurrency: 2 })).toEqual([]);
    expect(problems({ logCount: 1, maximumConcurrency: 3 })).toEqual([expect.stringMatching(/^maximumConcurrency/)]);
  });

  it('gives the evaluate function one instance per log unless the stage sets its concurrency', () => {
    expect(resolveConfig({ logCount: 16 }).maximumConcurrency).toBe(16);
    expect(resolveConfig({ logCount: 1 }).maximumConcurrency).toBe(2);
    expect(resolveConfig({ logCount: 16, maximumConcurrency: 6 }).maximumConcurrency).toBe(6);
    expect(resolveConfig({}).maximumConcurrency).toBe(resolveConfig({}).logCount);
  });

  it('refuses a maximum concurrency outside 2–1000, a default budget above the maximum budget, and a maximum above the evaluator’s', () => {
    expect(problems({ maximumConcurrency: 1 })).toHaveLength(1);
    expect(problems({ budgets: { defaultWorkUnits: 10, maxWorkUnits: MAX_WORK_BUDGET + 1 } })).toEqual([
      expect.stringMatching(/^budgets\.maxWorkUnits/),
    ]);
    expect(problems({ budgets: { defaultWorkUnits: 10, maxWorkUnits: 5 } })).toEqual([
      expect.stringMatching(/defaultWorkUnits must not exceed/),
    ]);
  });

  it('refuses a deliver concurrency outside 2–1000 and a deliver memory outside 128–10,240 MB', () => {
    for (const deliverMaximumConcurrency of [1, 1001, 0, -4, 2.5, Number.NaN])
      expect(problems({ deliverMaximumConcurrency }), String(deliverMaximumConcurrency)).toEqual([
        expect.stringMatching(/^deliverMaximumConcurrency/),
      ]);
    for (const deliverMaximumConcurrency of [2, 10, 1000])
      expect(problems({ deliverMaximumConcurrency }), String(deliverMaximumConcurrency)).toEqual([]);
    for (const deliverMemoryMb of [127, 10_241])
      expect(problems({ deliverMemoryMb }), String(deliverMemoryMb)).toEqual([
        expect.stringMatching(/^deliverMemoryMb/),
      ]);
    expect(problems({ deliverMemoryMb: 128 })).toEqual([]);
    expect(() => resolveConfig({ deliverMaximumConcurrency: 1001 })).toThrow(DocketConfigError);
  });

  it('gives the deliver function the evaluate function’s concurrency, at least ten, unless the stage sets its own', () => {
    expect(resolveConfig({}).deliverMaximumConcurrency).toBe(10);
    expect(resolveConfig({ logCount: 16 }).deliverMaximumConcurrency).toBe(16);
    expect(resolveConfig({ logCount: 16, maximumConcurrency: 12 }).deliverMaximumConcurrency).toBe(12);
    expect(resolveConfig({ logCount: 16, maximumConcurrency: 6 }).deliverMaximumConcurrency).toBe(10);
    expect(resolveConfig({ logCount: 64 }).deliverMaximumConcurrency).toBe(64);
    // A stage's own value wins, below ten or below the evaluate function's as well.
    expect(resolveConfig({ logCount: 16, deliverMaximumConcurrency: 3 }).deliverMaximumConcurrency).toBe(3);
    expect(resolveConfig({ logCount: 16, deliverMaximumConcurrency: 200 }).deliverMaximumConcurrency).toBe(200);
    expect(resolveConfig({}).deliverMemoryMb).toBe(512);
  });

  it('refuses stage names that cannot become resource names', () => {
    for (const stage of ['Prod', '1dev', 'dev_1', '', 'a'.repeat(21)])
      expect(validateConfig(defaultConfig(stage)), stage).toHaveLength(1);
  });

  it('refuses a route target mapped twice, an unknown kind, an empty name and a queue key that cannot be a queue name', () => {
    const bad = problems({
      routes: [
        { kind: 'queue', name: 'Review', queue: 'review' },
        { kind: 'queue', name: 'Review', queue: 'other' },
        { kind: 'robot' as never, name: 'X', queue: 'x' },
        { kind: 'system', name: '', queue: 'y' },
        { kind: 'system', name: 'Z', queue: 'Has Space' },
      ],
    });
    expect(bad).toEqual([
      expect.stringMatching(/routes\[1\] maps "queue:Review" a second time/),
      expect.stringMatching(/routes\[2\]\.kind/),
      expect.stringMatching(/routes\[3\]\.name/),
      expect.stringMatching(/routes\[4\]\.queue/),
    ]);
  });

  it('refuses queue keys with doubled or edge hyphens, and two keys that would share an output id', () => {
    for (const queue of ['a--b', '-a', 'a-', 'k'.repeat(25)])
      expect(problems({ routes: [{ kind: 'queue', name: 'X', queue }] }), queue).toHaveLength(1);
    expect(
      problems({
        routes: [
          { kind: 'queue', name: 'X', queue: 'a-1' },
          { kind: 'queue', name: 'Y', queue: 'a1' },
        ],
      }),
    ).toEqual(['route queue keys "a-1" and "a1" are too alike (both become output RouteQueueUrlA1)']);
    expect(problems({ routes: [{ kind: 'queue', name: 'X', queue: 'case-review-2' }] })).toEqual([]);
  });

  it('refuses so many routes that ROUTE_QUEUES would overflow Lambda’s 4 KB environment', () => {
    const routes = Array.from({ length: 40 }, (_, i) => ({
      kind: 'queue' as const,
      name: `Route number ${i}`,
      queue: `route-${i}`,
    }));
    expect(problems({ routes })).toEqual([expect.stringMatching(/function environment too large/)]);
    expect(problems({ routes: routes.slice(0, 16) })).toEqual([]);
  });

  it('refuses a trust policy that is not a JSON object', () => {
    expect(problems({ trustPolicy: 'not json' })).toEqual(['trustPolicy must be JSON text']);
    expect(problems({ trustPolicy: '[]' })).toEqual(['trustPolicy must be a JSON object']);
  });

  it('resolveConfig merges budgets and alarms member-wise and throws every problem at once', () => {
    const c = resolveConfig({
      stage: 'qa',
      budgets: { maxWorkUnits: 2_000_000 } as never,
      alarms: { dlqDepth: 5 } as never,
    });
    expect(c.budgets).toEqual({ defaultWorkUnits: DEFAULT_WORK_BUDGET, maxWorkUnits: 2_000_000 });
    expect(c.alarms.dlqDepth).toBe(5);
    expect(c.alarms.periodSeconds).toBe(60);
    try {
      resolveConfig({ maxReceiveCount: 1, logCount: 0 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DocketConfigError);
      expect((e as DocketConfigError).code).toBe('invalid-config');
      expect((e as DocketConfigError).problems).toHaveLength(2);
    }
  });

  it('configFromContext selects the stage from context and applies that stage’s overrides, from objects or JSON strings', () => {
    const app = new App({
      context: { stage: 'prod', docket: { prod: { logCount: 8, maxReceiveCount: 9 }, dev: { logCount: 2 } } },
    });
    const c = configFromContext(app.node);
    expect(c.stage).toBe('prod');
    expect(c.logCount).toBe(8);
    expect(c.maxReceiveCount).toBe(9);
    const fromCli = new App({ context: { stage: 'dev', docket: JSON.stringify({ dev: { logCount: 2 } }) } });
    expect(configFromContext(fromCli.node).logCount).toBe(2);
    expect(configFromContext(new App().node).stage).toBe('dev');
  });

  it('every stage configured in cdk.json is deployable', () => {
    const cdkJson = JSON.parse(readFileSync(join(repoRoot(), 'cdk.json'), 'utf8')) as {
      app: string;
      context: { stage: string; docket: Record<string, object> };
    };
    expect(cdkJson.app).toBe('node dist/infra/app.js');
    const stages = Object.keys(cdkJson.context.docket);
    expect(stages).toContain(cdkJson.context.stage);
    for (const stage of stages) {
      const app = new App({ context: { ...cdkJson.context, stage } });
      expect(configFromContext(app.node).stage).toBe(stage);
    }
  });

  it('configFromContext refuses an invalid override instead of deploying it', () => {
    const app = new App({ context: { stage: 'dev', docket: { dev: { maxReceiveCount: 2 } } } });
    expect(() => configFromContext(app.node)).toThrow(DocketConfigError);
  });
});

describe('resource names', () => {
  it('derive every physical name from the stage', () => {
    const n = resourceNames('prod', defaultConfig('prod'));
    expect(n.intake).toEqual({ queue: 'docket-prod-intake', dlq: 'docket-prod-intake-dlq' });
    expect(n.unrouted).toEqual({ queue: 'docket-prod-unrouted', dlq: 'docket-prod-unrouted-dlq' });
    expect(n.routes['review']).toEqual({ queue: 'docket-prod-route-review', dlq: 'docket-prod-route-review-dlq' });
    expect(n.deliveryQueue).toEqual({ queue: 'docket-prod-delivery', dlq: 'docket-prod-delivery-dlq' });
    expect([n.evaluateFunction, n.sequenceFunction, n.deliverFunction, n.checkpointFunction]).toEqual([
      'docket-prod-evaluate',
      'docket-prod-sequence',
      'docket-prod-deliver',
      'docket-prod-checkpoint',
    ]);
    expect([n.ledgerTable, n.packsTable, n.requestsTable]).toEqual([
      'docket-prod-ledger',
      'docket-prod-packs',
      'docket-prod-requests',
    ]);
    expect(n.logIds).toEqual(['prod-0', 'prod-1', 'prod-2', 'prod-3']);
    expect(n.signingSecret).toBe('docket/prod/signing-key');
  });

  it('name ledger logs with ids the ledger format accepts', () => {
    for (const stage of ['dev', 'a'.repeat(20)]) {
      for (const id of resourceNames(stage, { ...defaultConfig(stage), logCount: 64 }).logIds)
        expect(id).toMatch(LOG_ID_PATTERN);
    }
  });

  it('give a queue key shared by several route targets one queue, in first-declaration order', () => {
    const routes = [
      { kind: 'queue' as const, name: 'B', queue: 'b' },
      { kind: 'queue' as const, name: 'A', queue: 'a' },
      { kind: 'system' as const, name: 'B2', queue: 'b' },
    ];
    expect(routeQueueKeys(routes)).toEqual(['b', 'a']);
    expect(Object.keys(resourceNames('dev', { routes, logCount: 1 }).routes)).toEqual(['b', 'a']);
  });

  it('keep every queue name within SQS’s 80 characters at the longest stage and queue key', () => {
    const stage = 'a'.repeat(20);
    const config = { ...defaultConfig(stage), routes: [{ kind: 'queue' as const, name: 'X', queue: 'k'.repeat(24) }] };
    expect(validateConfig(config)).toEqual([]);
    const n = resourceNames(stage, config);
    for (const p of [n.intake, n.ledgerQueue, n.deliveryQueue, n.unrouted, ...Object.values(n.routes)])
      expect(p.dlq.length).toBeLessThanOrEqual(80);
  });

  it('key ROUTE_QUEUES exactly as the pipeline looks targets up', () => {
    for (const target of [
      { kind: 'queue' as const, name: 'Review' },
      { kind: 'human-role' as const, name: 'Oversight: EU / Ünïcode' },
    ]) {
      expect(routeTargetKey(target)).toBe(routeKey(target));
    }
  });

  it('give the local stack the same function environment as the cloud, with real queue URLs', () => {
    const config = defaultConfig('local');
    const names = resourceNames('local', config);
    const local = {
      config,
      names,
      queueUrl: (q: string) => `http://127.0.0.1:4566/000000000000/${q}`,
      resultsTopicArn: 'arn:aws:sns:us-east-1:000000000000:docket-local-results',
    };
    const env = evaluateEnvironment({ ...local, signingSecretArn: 'arn:local' });
    // The evaluate function plans no handoff: the route queues are the deliver function's alone (ADR 0404).
    expect(Object.hasOwn(env, 'ROUTE_QUEUES') || Object.hasOwn(env, 'UNROUTED_QUEUE_URL')).toBe(false);
    const deliver = deliverEnvironment(local);
    expect(JSON.parse(deliver['ROUTE_QUEUES']!)).toEqual({
      [routeTargetKey({ kind: 'queue', name: 'Review' })]:
        'http://127.0.0.1:4566/000000000000/docket-local-route-review',
      'human-role:Oversight': 'http://127.0.0.1:4566/000000000000/docket-local-route-oversight',
      'system:Case Management': 'http://127.0.0.1:4566/000000000000/docket-local-route-case-management',
    });
    expect(deliver['UNROUTED_QUEUE_URL']).toBe('http://127.0.0.1:4566/000000000000/docket-local-unrouted');
    // The evaluate function sends delivery jobs and publishes nothing itself (docs/adr/0404-delivery-stage.md).
    expect(env['DELIVERY_QUEUE_URL']).toBe('http://127.0.0.1:4566/000000000000/docket-local-delivery');
    expect(Object.hasOwn(env, 'RESULTS_TOPIC_ARN')).toBe(false);
    // The deliver function sends the handoffs, publishes, and dead-letters to its own DLQ.
    expect(deliver).toEqual({
      DOCKET_STAGE: 'local',
      LEDGER_TABLE: 'docket-local-ledger',
      PACKS_TABLE: 'docket-local-packs',
      ROUTE_QUEUES: deliver['ROUTE_QUEUES'],
      UNROUTED_QUEUE_URL: deliver['UNROUTED_QUEUE_URL'],
      RESULTS_TOPIC_ARN: 'arn:aws:sns:us-east-1:000000000000:docket-local-results',
      DELIVERY_DLQ_URL: 'http://127.0.0.1:4566/000000000000/docket-local-delivery-dlq',
    });
  });
});

describe('the local stage preset', () => {
  it('maps every target the example packs name to a route queue, so the demo never lands on unrouted by accident', () => {
    const config = resolveConfig({ stage: 'local' });
    const mapped = new Set(config.routes.map((r) => `${r.kind}:${r.name}`));
    const dir = join(repoRoot(), 'examples');
    const named: string[] = [];
    for (const file of [
      'data-request-intake-triage.json',
      'extended-profile-fanout.json',
      'routes-all-filtered.json',
      'vendor-onboarding-target.json',
      'legacy-expense-approval-0.2.0-draft.json',
      ...readdirSync(join(dir, 'graphs')).flatMap((project) =>
        readdirSync(join(dir, 'graphs', project, 'packs')).map((f) => join('graphs', project, 'packs', f)),
      ),
    ]) {
      const pack = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
        escalation?: { target?: { kind: string; name: string }; routes?: { target: { kind: string; name: string } }[] };
      };
      const targets = [pack.escalation?.target, ...(pack.escalation?.routes ?? []).map((r) => r.target)].filter(
        (t) => t !== undefined,
      );
      for (const t of targets) named.push(`${t.kind}:${t.name}`);
    }
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((t) => !mapped.has(t))).toEqual([]);
  });

  it('leaves every other stage on the defaults', () => {
    expect(resolveConfig({ stage: 'dev' }).routes).toEqual(defaultConfig('dev').routes);
  });
});

describe('the draftFeatures deployment setting', () => {
  const envInput = (config: DocketConfig) => ({
    config,
    names: resourceNames(config.stage, config),
    queueUrl: (q: string) => `http://127.0.0.1:4566/000000000000/${q}`,
    resultsTopicArn: 'arn:aws:sns:us-east-1:000000000000:docket-local-results',
  });
  const envOf = (config: DocketConfig): Record<string, string> =>
    evaluateEnvironment({ ...envInput(config), signingSecretArn: 'arn:local' });
  it('is off by default, and then neither the evaluate nor the deliver function gets a DRAFT_FEATURES variable', () => {
    expect(defaultConfig('dev').draftFeatures).toEqual([]);
    expect(Object.hasOwn(envOf(defaultConfig('dev')), 'DRAFT_FEATURES')).toBe(false);
    expect(Object.hasOwn(deliverEnvironment(envInput(defaultConfig('dev'))), 'DRAFT_FEATURES')).toBe(false);
  });
  it('accepts a known draft feature now that ledger entries record it (ADR 0221 supersedes ADR 0194)', () => {
    expect(problems({ draftFeatures: ['rfc0008-quantifiers'] })).toEqual([]);
  });
  it('passes the enabled features to the evaluate and deliver functions as a sorted JSON array', () => {
    const config = resolveConfig({ stage: 'dev', draftFeatures: ['rfc0008-quantifiers'] });
    expect(envOf(config)['DRAFT_FEATURES']).toBe('["rfc0008-quantifiers"]');
    // The deliver function loads a handoff's target-only pack under the same features (functions/lib/deliver-runtime.ts).
    expect(deliverEnvironment(envInput(config))['DRAFT_FEATURES']).toBe('["rfc0008-quantifiers"]');
  });
  it('enables judgment graphs the same way, beside the quantifiers (ADR 0360)', () => {
    expect(problems({ draftFeatures: ['rfc0008-quantifiers', 'judgment-graphs'] })).toEqual([]);
    const config = resolveConfig({ stage: 'dev', draftFeatures: ['rfc0008-quantifiers', 'judgment-graphs'] });
    expect(envOf(config)['DRAFT_FEATURES']).toBe('["judgment-graphs","rfc0008-quantifiers"]');
  });
  it('refuses an unknown feature name', () => {
    expect(problems({ draftFeatures: ['rfc9999-anything'] })[0]).toMatch(/unknown feature "rfc9999-anything"/);
  });
  it('refuses a feature named twice', () => {
    expect(problems({ draftFeatures: ['rfc0008-quantifiers', 'rfc0008-quantifiers'] })).toEqual([
      'draftFeatures names each feature once',
    ]);
  });
  it('refuses a value that is not a list', () => {
    expect(problems({ draftFeatures: 'rfc0008-quantifiers' as unknown as string[] })).toEqual([
      'draftFeatures must be an array of draft feature names',
    ]);
  });
});
