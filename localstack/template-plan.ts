/**
 * Reads a synthesized CloudFormation template (infra/synth.ts) into what the local stack must create: DynamoDB tables
 * (keys), SQS queues (with RedrivePolicy, VisibilityTimeout, FIFO settings, …) and the Lambda SQS event
 * source mappings the poller emulates. Pure: no I/O. One source of truth with the cloud stack (ADR 0064) —
 * there is no hand-written list of resources anywhere in localstack/.
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export type CfnTemplate = {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
} & Record<string, unknown>;

export class TemplatePlanError extends Error {
  readonly code = 'template-unsupported';
}

export interface TablePlan {
  readonly logicalId: string;
  readonly tableName: string;
  readonly input: CreateTableCommandInput;
}

export interface QueuePlan {
  readonly logicalId: string;
  readonly queueName: string;
  /** Queue attributes other than RedrivePolicy, as SQS's string map. */
  readonly attributes: Record<string, string>;
  /** RedrivePolicy pointing at another queue of the template (its ARN is known only once that queue exists). */
  readonly redrive: { readonly deadLetterLogicalId: string; readonly maxReceiveCount: number } | null;
}

export interface FunctionPlan {
  readonly logicalId: string;
  readonly handler: string | undefined;
  /** Seconds; CloudFormation's default is 3. */
  readonly timeoutSeconds: number;
  /** Raw (possibly intrinsic) environment values; resolve with resolveIntrinsic once resources exist. */
  readonly environment: Record<string, unknown>;
}

export interface EventSourcePlan {
  readonly logicalId: string;
  readonly queueLogicalId: string;
  readonly functionLogicalId: string;
  readonly batchSize: number;
  readonly maxBatchingWindowSeconds: number;
  readonly reportBatchItemFailures: boolean;
  /** ScalingConfig.MaximumConcurrency, or undefined when unset. */
  readonly maximumConcurrency: number | undefined;
  readonly enabled: boolean;
}

/** An S3 bucket (checkpoint exports). A template without a BucketName gets a stable local name (ADR 0111). */
export interface BucketPlan {
  readonly logicalId: string;
  readonly bucketName: string;
}

/** An SNS topic. */
export interface TopicPlan {
  readonly logicalId: string;
  readonly topicName: string;
}

export interface StackPlan {
  readonly tables: readonly TablePlan[];
  readonly buckets: readonly BucketPlan[];
  readonly topics: readonly TopicPlan[];
  /** Dead-letter targets before the queues that name them. */
  readonly queues: readonly QueuePlan[];
  readonly functions: readonly FunctionPlan[];
  readonly eventSources: readonly EventSourcePlan[];
  /**
   * Queues whose policy denies `sqs:SendMessage` to every principal without exception: the intake queue's DLQ and the
   * FIFO ledger queue's DLQ, which only SQS's redrive fills (ADR 0455, ADR 0492). The edge proxy refuses sends to them as AWS would. A deny that excepts
   * a role (aws:PrincipalArn) is not kept locally: the local stack knows no principals.
   */
  readonly sendDeniedQueues: readonly string[];
}

/** Queue properties that map one-to-one onto SQS attributes. */
const QUEUE_ATTRIBUTES = [
  'DelaySeconds',
  'MaximumMessageSize',
  'MessageRetentionPeriod',
  'ReceiveMessageWaitTimeSeconds',
  'VisibilityTimeout',
  'FifoQueue',
  'ContentBasedDeduplication',
  'DeduplicationScope',
  'FifoThroughputLimit',
] as const;

export function planFromTemplate(template: CfnTemplate): StackPlan {
  const resources = template.Resources ?? {};
  const tables: TablePlan[] = [];
  const queues: QueuePlan[] = [];
  const functions: FunctionPlan[] = [];
  const eventSources: EventSourcePlan[] = [];
  const buckets: BucketPlan[] = [];
  const topics: TopicPlan[] = [];
  for (const [logicalId, r] of Object.entries(resources)) {
    const p = r.Properties ?? {};
    if (r.Type === 'AWS::DynamoDB::Table') tables.push(planTable(logicalId, p));
    else if (r.Type === 'AWS::SQS::Queue') queues.push(planQueue(logicalId, p));
    else if (r.Type === 'AWS::Lambda::Function') functions.push(planFunction(logicalId, p));
    else if (r.Type === 'AWS::S3::Bucket') buckets.push({ logicalId, bucketName: bucketName(logicalId, p) });
    else if (r.Type === 'AWS::SNS::Topic') topics.push({ logicalId, topicName: literalName(p.TopicName, logicalId) });
    else if (r.Type === 'AWS::Lambda::EventSourceMapping') {
      const es = planEventSource(logicalId, p, resources);
      if (es) eventSources.push(es);
    }
  }
  const sendDeniedQueues = sendDenied(resources, queues);
  return {
    tables,
    buckets,
    topics,
    queues: orderQueues(queues),
    functions,
    eventSources,
    sendDeniedQueues,
  };
}

interface PolicyStatement {
  readonly Effect?: unknown;
  readonly Principal?: unknown;
  readonly Action?: unknown;
  readonly Condition?: Record<string, unknown>;
}

/**
 * The names of the queues a QueuePolicy statement denies SendMessage to for every principal: Effect Deny, Principal
 * `*`, an action covering `sqs:SendMessage`, and no condition (the TLS-only deny has one, aws:SecureTransport).
 */
function sendDenied(resources: NonNullable<CfnTemplate['Resources']>, queues: readonly QueuePlan[]): string[] {
  const names = new Set<string>();
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::SQS::QueuePolicy') continue;
    const p = r.Properties ?? {};
    const doc = p.PolicyDocument as { Statement?: PolicyStatement[] } | undefined;
    const denies = (doc?.Statement ?? []).some((st) => {
      const actions = ([] as unknown[]).concat(st.Action ?? []);
      const anyone = st.Principal === '*' || (st.Principal as { AWS?: unknown } | undefined)?.AWS === '*';
      return (
        st.Effect === 'Deny' &&
        anyone &&
        actions.some((a) => a === 'sqs:SendMessage' || a === 'sqs:*') &&
        Object.keys(st.Condition ?? {}).length === 0
      );
    });
    if (!denies) continue;
    for (const ref of (p.Queues as { Ref?: unknown }[] | undefined) ?? []) {
      const q = queues.find((x) => x.logicalId === ref.Ref);
      if (q) names.add(q.queueName);
    }
  }
  return [...names].sort();
}

/**
 * CloudFormation names a bucket without a BucketName `<stack>-<logical id>-<random>`; locally it is
 * `docket-<stage tag>-<logical id>`, lower-cased and cut to S3's 63 characters, so it is stable across restarts.
 */
function bucketName(logicalId: string, p: Record<string, unknown>): string {
  if (p.BucketName !== undefined) return literalName(p.BucketName, logicalId);
  const tags = (p.Tags as Array<{ Key?: unknown; Value?: unknown }> | undefined) ?? [];
  const stage = tags.find((t) => t.Key === 'docket:stage')?.Value;
  const prefix = typeof stage === 'string' ? `docket-${stage}` : 'local';
  return `${prefix}-${logicalId}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 63)
    .replace(/-+$/, '');
}

function planTable(logicalId: string, p: Record<string, unknown>): TablePlan {
  const tableName = literalName(p.TableName, logicalId);
  const input: CreateTableCommandInput = {
    TableName: tableName,
    KeySchema: p.KeySchema as never,
    AttributeDefinitions: p.AttributeDefinitions as never,
    // Every table of the stack is on-demand (infra/constructs/durable-table.ts).
    BillingMode: 'PAY_PER_REQUEST',
  };
  if (!Array.isArray(p.KeySchema) || !Array.isArray(p.AttributeDefinitions)) {
    throw new TemplatePlanError(`table ${logicalId} has no literal KeySchema/AttributeDefinitions`);
  }
  // The stack's tables have none; a template that has them is not one the local stack can stand in for.
  if (p.GlobalSecondaryIndexes !== undefined || p.LocalSecondaryIndexes !== undefined)
    throw new TemplatePlanError(`table ${logicalId} has secondary indexes, which the local stack does not create`);
  return { logicalId, tableName, input };
}

function planQueue(logicalId: string, p: Record<string, unknown>): QueuePlan {
  const fifo = p.FifoQueue === true || p.FifoQueue === 'true';
  const queueName = literalName(p.QueueName, fifo ? `${logicalId}.fifo` : logicalId);
  const attributes: Record<string, string> = {};
  for (const name of QUEUE_ATTRIBUTES) {
    const v = p[name];
    if (v === undefined) continue;
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      throw new TemplatePlanError(`queue ${logicalId} property ${name} is not a literal`);
    }
    attributes[name] = String(v);
  }
  let redrive: QueuePlan['redrive'] = null;
  const rp = p.RedrivePolicy as Record<string, unknown> | undefined;
  if (rp) {
    const target = logicalIdOf(rp.deadLetterTargetArn);
    if (!target) throw new TemplatePlanError(`queue ${logicalId} RedrivePolicy does not name a queue of this template`);
    redrive = { deadLetterLogicalId: target, maxReceiveCount: Number(rp.maxReceiveCount) };
  }
  return { logicalId, queueName, attributes, redrive };
}

function planFunction(logicalId: string, p: Record<string, unknown>): FunctionPlan {
  const env = (p.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
  return {
    logicalId,
    handler: typeof p.Handler === 'string' ? p.Handler : undefined,
    timeoutSeconds: p.Timeout === undefined ? 3 : Number(p.Timeout),
    environment: { ...env },
  };
}

function planEventSource(
  logicalId: string,
  p: Record<string, unknown>,
  resources: NonNullable<CfnTemplate['Resources']>,
): EventSourcePlan | null {
  const queueLogicalId = logicalIdOf(p.EventSourceArn);
  if (!queueLogicalId || resources[queueLogicalId]?.Type !== 'AWS::SQS::Queue') return null; // not an SQS source
  const functionLogicalId = logicalIdOf(p.FunctionName);
  if (!functionLogicalId)
    throw new TemplatePlanError(`event source ${logicalId} does not name a function of this template`);
  const scaling = p.ScalingConfig as { MaximumConcurrency?: unknown } | undefined;
  return {
    logicalId,
    queueLogicalId,
    functionLogicalId,
    batchSize: p.BatchSize === undefined ? 10 : Number(p.BatchSize),
    maxBatchingWindowSeconds:
      p.MaximumBatchingWindowInSeconds === undefined ? 0 : Number(p.MaximumBatchingWindowInSeconds),
    reportBatchItemFailures:
      Array.isArray(p.FunctionResponseTypes) && p.FunctionResponseTypes.includes('ReportBatchItemFailures'),
    maximumConcurrency: scaling?.MaximumConcurrency === undefined ? undefined : Number(scaling.MaximumConcurrency),
    enabled: p.Enabled === undefined ? true : p.Enabled === true || p.Enabled === 'true',
  };
}

/** Topological order: a dead-letter queue is created before every queue whose RedrivePolicy names it. */
function orderQueues(queues: QueuePlan[]): QueuePlan[] {
  const byId = new Map(queues.map((q) => [q.logicalId, q]));
  const out: QueuePlan[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (q: QueuePlan): void => {
    if (state.get(q.logicalId) === 'done') return;
    if (state.get(q.logicalId) === 'visiting')
      throw new TemplatePlanError(`RedrivePolicy cycle through ${q.logicalId}`);
    state.set(q.logicalId, 'visiting');
    if (q.redrive) {
      const dlq = byId.get(q.redrive.deadLetterLogicalId);
      if (!dlq)
        throw new TemplatePlanError(
          `queue ${q.logicalId} names missing dead-letter queue ${q.redrive.deadLetterLogicalId}`,
        );
      visit(dlq);
    }
    state.set(q.logicalId, 'done');
    out.push(q);
  };
  for (const q of queues) visit(q);
  return out;
}

/** `{Ref: X}` or `{"Fn::GetAtt": [X, attr]}` → X. */
export function logicalIdOf(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.Ref === 'string') return o.Ref;
  const ga = o['Fn::GetAtt'];
  if (Array.isArray(ga) && typeof ga[0] === 'string') return ga[0];
  if (typeof ga === 'string') return ga.split('.')[0];
  return undefined;
}

/** A physical name must be a literal string; a template without one gets the logical id (docs/adr/0064). */
function literalName(v: unknown, fallback: string): string {
  if (v === undefined) return fallback;
  if (typeof v !== 'string') throw new TemplatePlanError(`physical name ${JSON.stringify(v)} is not a literal string`);
  return v;
}

/** What each logical id resolves to once the local resources exist. */
export interface ResolvedResource {
  readonly ref: string;
  readonly attributes: Readonly<Record<string, string>>;
}

export interface IntrinsicContext {
  readonly resources: ReadonlyMap<string, ResolvedResource>;
  readonly region: string;
  readonly accountId: string;
}

/**
 * Resolves the intrinsics a function environment uses (Ref, Fn::GetAtt, Fn::Join, Fn::Sub, pseudo parameters)
 * against the local resources. Returns undefined for anything it cannot resolve (the variable is then left unset).
 */
export function resolveIntrinsic(v: unknown, ctx: IntrinsicContext): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.Ref === 'string') {
    if (o.Ref === 'AWS::Region') return ctx.region;
    if (o.Ref === 'AWS::AccountId') return ctx.accountId;
    if (o.Ref === 'AWS::Partition') return 'aws';
    if (o.Ref === 'AWS::URLSuffix') return 'amazonaws.com';
    return ctx.resources.get(o.Ref)?.ref;
  }
  if ('Fn::GetAtt' in o) {
    const ga = o['Fn::GetAtt'];
    const [id, attr] = Array.isArray(ga) ? ga : typeof ga === 'string' ? ga.split('.') : [];
    return typeof id === 'string' && typeof attr === 'string' ? ctx.resources.get(id)?.attributes[attr] : undefined;
  }
  if ('Fn::Join' in o) {
    const [sep, parts] = o['Fn::Join'] as [string, unknown[]];
    const resolved = (parts ?? []).map((x) => resolveIntrinsic(x, ctx));
    return resolved.every((x): x is string => x !== undefined) ? resolved.join(sep) : undefined;
  }
  if ('Fn::Sub' in o) {
    const sub = o['Fn::Sub'];
    const [text, vars] = typeof sub === 'string' ? [sub, {}] : (sub as [string, Record<string, unknown>]);
    let failed = false;
    const out = text.replace(/\$\{([^}!][^}]*)\}/g, (_, name: string) => {
      const r =
        name in vars
          ? resolveIntrinsic(vars[name], ctx)
          : name.includes('.')
            ? resolveIntrinsic({ 'Fn::GetAtt': name.split('.') }, ctx)
            : resolveIntrinsic({ Ref: name }, ctx);
      if (r === undefined) failed = true;
      return r ?? '';
    });
    return failed ? undefined : out;
  }
  return undefined;
}
