/**
 * Docket's deployment configuration: one typed object per environment (stage), read from CDK context so that no
 * account, region or environment-specific value is hard-coded in the stack (ADR 0084).
 *
 * The same object drives the local stack (localstack/ provisions from the synthesized template and builds the
 * function environment with infra/function-environment.ts), so local and cloud cannot drift.
 */
import type { Node } from 'constructs';
// Pure constants (no I/O): the deployed defaults are the evaluator's own (docs/adr/0034-work-budget-defaults.md).
import { DEFAULT_WORK_BUDGET, MAX_WORK_BUDGET } from '../core/evaluate/index.js';
import { DRAFT_FEATURES, isDraftFeature } from '../core/pack/index.js';
import { routeOutputId } from './output-ids.js';

/** §6.7 target kinds: a route target is `{kind, name}` with kind one of these. */
export type RouteKind = 'human-role' | 'queue' | 'system';
export const ROUTE_KINDS: readonly RouteKind[] = ['human-role', 'queue', 'system'];

/**
 * Maps one §6.7 route target (kind + exact display name, as written in packs) to a handoff queue. Several targets may
 * share one queue key; each key gets one queue `docket-<stage>-route-<queue>` and its DLQ.
 */
export interface RouteConfig {
  readonly kind: RouteKind;
  /** The target's exact `name` (a non-empty display name, compared byte for byte). */
  readonly name: string;
  /** Short queue key: 1–24 chars of `[a-z0-9]` words joined by single hyphens, e.g. "case-review". */
  readonly queue: string;
}

export interface AlarmThresholds {
  /** Alarm when any DLQ holds at least this many visible messages. */
  readonly dlqDepth: number;
  /** Alarm when the oldest intake message is at least this old (seconds). */
  readonly intakeAgeOfOldestMessageSeconds: number;
  /** Alarm when a function reports at least this many errors in one period. */
  readonly functionErrors: number;
  /** Alarm when the evaluate function or the ledger table is throttled at least this often in one period. */
  readonly throttles: number;
  /** Period of every alarm, in seconds (60 or a multiple of 60). */
  readonly periodSeconds: number;
  /** Consecutive periods over the threshold before the alarm fires. */
  readonly evaluationPeriods: number;
}

export interface DocketConfig {
  /** Environment name, `[a-z][a-z0-9-]{0,19}`; every physical name derives from it. */
  readonly stage: string;
  /** Number of ledger logs that spread write load (one log = one hash chain = one hot partition). 1–64. */
  readonly logCount: number;
  readonly routes: readonly RouteConfig[];
  /** Work budgets in RFC 0008 work units (§10): applied when a request names none, and the most one may ask for. */
  readonly budgets: { readonly defaultWorkUnits: number; readonly maxWorkUnits: number };
  /** Extensions the deployed evaluator supports (§9); a property of the deployment, not of a request. */
  readonly supportedExtensions: readonly string[];
  /**
   * Draft grammar the deployed evaluator enables (ADR 0190), e.g. "rfc0008-quantifiers". Off (empty) by default.
   * Passed to the evaluate function (DRAFT_FEATURES); every entry it writes records them, in format
   * docket.ledger-entry/2 (ADR 0220, ADR 0221). The trust policy must permit them for the checkpoint writer to vouch.
   */
  readonly draftFeatures: readonly string[];
  /**
   * SQS event sources: records per invocation, 1–10 (the evaluate function reads the FIFO ledger queue, whose event
   * source takes at most 10; the sequence function reads the intake queue with the same size).
   */
  readonly batchSize: number;
  /** The sequence function's batching window on the (standard) intake queue, seconds (0–300); FIFO sources have none. */
  readonly maxBatchingWindowSeconds: number;
  /**
   * The evaluate function's maximum concurrency (2–1000), at most max(2, logCount): FIFO runs one batch per message
   * group (per log) at a time, so more instances than logs would never run (docs/adr/0273-sequencing-configuration.md).
   */
  readonly maximumConcurrency: number;
  /** The sequence function's maximum concurrency on the intake queue (2–1000). */
  readonly sequencerMaximumConcurrency: number;
  /** The sequence function's memory, MB (128–10,240): it reads one request id per message. */
  readonly sequencerMemoryMb: number;
  /**
   * The deliver function's maximum concurrency on the delivery queue (2–1000; docs/adr/0404-delivery-stage.md). Unless
   * a stage sets it, max(10, maximumConcurrency): every evaluate batch sends one job per log it wrote.
   */
  readonly deliverMaximumConcurrency: number;
  /** The deliver function's memory, MB (128–10,240): it reads entries back and sends what they owe; no signing. */
  readonly deliverMemoryMb: number;
  /** Evaluate function timeout, seconds (1–900). Intake visibility timeout = visibilityTimeoutFactor × this. */
  readonly functionTimeoutSeconds: number;
  /** ≥ 6 (AWS guidance for SQS event sources). */
  readonly visibilityTimeoutFactor: number;
  readonly memoryMb: number;
  readonly checkpointTimeoutSeconds: number;
  readonly checkpointMemoryMb: number;
  /** Bundle the AWS SDK into the functions instead of using the runtime's copy (ADR 0421). */
  readonly bundleAwsSdk: boolean;
  /** CloudWatch Logs retention of both functions, days. */
  readonly logRetentionDays: number;
  /** Intake and handoff queue message retention, seconds (60–1,209,600). */
  readonly queueRetentionSeconds: number;
  /** DLQ message retention, seconds (always the SQS maximum by default: a dead letter must outlive its alarm). */
  readonly dlqRetentionSeconds: number;
  /** Deliveries before a message moves to its DLQ; ≥ 5 (AWS guidance, survives throttling bursts). */
  readonly maxReceiveCount: number;
  /** Ledger point-in-time recovery window, days (1–35). */
  readonly pitrRecoveryDays: number;
  /** EventBridge schedule expression of the checkpoint function, e.g. "rate(15 minutes)". */
  readonly checkpointSchedule: string;
  /** Object Lock (compliance mode) default retention of exported checkpoints, days. */
  readonly checkpointExportRetentionDays: number;
  /** When set, the attribute name used for TTL on the request archive (never on the ledger). */
  readonly requestArchiveTtlAttribute?: string;
  readonly alarms: AlarmThresholds;
  /** Optional e-mail subscribed to the alarm topic. */
  readonly alarmEmail?: string;
  /**
   * The public trust policy (JSON text printed by `docket keygen`: public keys, key ids, sequence ranges). Public
   * data, reviewed in CDK context; published as an SSM parameter and an output. Absent until the first keygen.
   */
  readonly trustPolicy?: string;
}

/** The defaults a demanding operator would accept for a first deploy; every value can be overridden per stage. */
export function defaultConfig(stage: string): DocketConfig {
  return {
    stage,
    logCount: 4,
    routes: [
      { kind: 'queue', name: 'Review', queue: 'review' },
      { kind: 'human-role', name: 'Oversight', queue: 'oversight' },
      { kind: 'system', name: 'Case Management', queue: 'case-management' },
    ],
    budgets: { defaultWorkUnits: DEFAULT_WORK_BUDGET, maxWorkUnits: MAX_WORK_BUDGET },
    supportedExtensions: [],
    draftFeatures: [],
    batchSize: 10,
    maxBatchingWindowSeconds: 0,
    // One instance per log: with FIFO more would never run (ADR 0273).
    maximumConcurrency: 4,
    sequencerMaximumConcurrency: 10,
    sequencerMemoryMb: 512,
    deliverMaximumConcurrency: 10,
    deliverMemoryMb: 512,
    functionTimeoutSeconds: 30,
    visibilityTimeoutFactor: 6,
    memoryMb: 1024,
    checkpointTimeoutSeconds: 300,
    checkpointMemoryMb: 1024,
    bundleAwsSdk: false,
    logRetentionDays: 365,
    queueRetentionSeconds: 4 * 24 * 3600,
    dlqRetentionSeconds: 14 * 24 * 3600,
    maxReceiveCount: 5,
    pitrRecoveryDays: 35,
    checkpointSchedule: 'rate(15 minutes)',
    checkpointExportRetentionDays: 7 * 365,
    alarms: {
      dlqDepth: 1,
      intakeAgeOfOldestMessageSeconds: 300,
      functionErrors: 1,
      throttles: 1,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
  };
}

/** A configuration that cannot be deployed safely; `problems` lists every violation, not only the first. */
export class DocketConfigError extends Error {
  readonly code = 'invalid-config';
  constructor(readonly problems: readonly string[]) {
    super(`invalid Docket configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'DocketConfigError';
  }
}

/**
 * Per-stage presets shipped with Docket, applied over the defaults and under any override. `local` is the stage
 * `npm start` runs: one route queue per target the example packs name (examples/, examples/graphs/), so the demo shows every handoff
 * shape landing on a real route queue. Route targets are mapped by configuration, never by code (ADR 0073).
 */
export const STAGE_PRESETS: Readonly<Record<string, Partial<DocketConfig>>> = {
  local: {
    routes: [
      { kind: 'queue', name: 'Intake Desk', queue: 'intake-desk' },
      { kind: 'human-role', name: 'Oversight', queue: 'oversight' },
      { kind: 'human-role', name: 'Data Steward', queue: 'data-steward' },
      { kind: 'queue', name: 'Vendor Risk', queue: 'vendor-risk' },
      // The graph examples' sanctions screening (examples/graphs/), RFC 0022's worked example's target verbatim.
      { kind: 'human-role', name: 'Sanctions Compliance Officer', queue: 'sanctions' },
      { kind: 'human-role', name: 'Finance Controller', queue: 'finance' },
      { kind: 'human-role', name: 'Incident Commander', queue: 'incident' },
      ...Array.from({ length: 9 }, (_, i) => ({ kind: 'queue' as const, name: `Region 0${i + 1}`, queue: 'regions' })),
      { kind: 'human-role', name: 'Line Manager', queue: 'hr' },
      { kind: 'system', name: 'HR Data Quality', queue: 'hr' },
    ],
  },
};

/** Merge overrides over the stage defaults (nested `budgets` and `alarms` merge member-wise), then validate. */
export function resolveConfig(overrides: Partial<DocketConfig> = {}): DocketConfig {
  const stage = overrides.stage ?? 'dev';
  const base: DocketConfig = {
    ...defaultConfig(stage),
    ...(Object.hasOwn(STAGE_PRESETS, stage) ? STAGE_PRESETS[stage] : {}),
  };
  const merged: DocketConfig = {
    ...base,
    ...overrides,
    stage,
    budgets: { ...base.budgets, ...(overrides.budgets ?? {}) },
    alarms: { ...base.alarms, ...(overrides.alarms ?? {}) },
  };
  // Unless a stage sets it, one evaluate instance per log (AWS's minimum 2): the most FIFO ever runs (ADR 0273).
  const concurrencySet = overrides.maximumConcurrency !== undefined || STAGE_PRESETS[stage]?.maximumConcurrency;
  if (!concurrencySet && Number.isInteger(merged.logCount))
    Object.assign(merged, { maximumConcurrency: Math.max(2, merged.logCount) });
  // Unless a stage sets it, the delivery stage keeps up with every evaluate instance (ADR 0404).
  const deliverSet =
    overrides.deliverMaximumConcurrency !== undefined || STAGE_PRESETS[stage]?.deliverMaximumConcurrency;
  if (!deliverSet && Number.isInteger(merged.maximumConcurrency))
    Object.assign(merged, { deliverMaximumConcurrency: Math.max(10, merged.maximumConcurrency) });
  const problems = validateConfig(merged);
  if (problems.length > 0) throw new DocketConfigError(problems);
  return merged;
}

/**
 * Read the configuration from CDK context: `-c stage=<name>` (default "dev") selects the stage, and
 * `docket.<stage>` (an object, usually in cdk.json or cdk.context.json) overrides any default. Context values given
 * on the command line arrive as strings, so JSON strings are parsed.
 */
export function configFromContext(node: Node): DocketConfig {
  const stage = String(node.tryGetContext('stage') ?? 'dev');
  const all = parseMaybeJson(node.tryGetContext('docket')) as Record<string, unknown> | undefined;
  const perStage = parseMaybeJson(all?.[stage]) as Partial<DocketConfig> | undefined;
  if (perStage !== undefined && (typeof perStage !== 'object' || perStage === null || Array.isArray(perStage))) {
    throw new DocketConfigError([`context docket.${stage} must be an object`]);
  }
  return resolveConfig({ ...(perStage ?? {}), stage });
}

function parseMaybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw new DocketConfigError([`context value is not JSON: ${v.slice(0, 80)}`]);
  }
}

const STAGE_RE = /^[a-z][a-z0-9-]{0,19}$/;
const QUEUE_KEY_RE = /^(?=.{1,24}$)[a-z0-9]+(-[a-z0-9]+)*$/;
/** Lambda caps the whole environment at 4 KB; route URLs are its only unbounded part. */
const LAMBDA_ENV_LIMIT_BYTES = 4096;

/** Every problem with a configuration (empty when it is deployable). */
export function validateConfig(c: DocketConfig): string[] {
  const p: string[] = [];
  const int = (name: string, v: number, min: number, max: number) => {
    if (!Number.isInteger(v) || v < min || v > max) p.push(`${name} must be an integer in [${min}, ${max}], got ${v}`);
  };
  if (!STAGE_RE.test(c.stage)) p.push(`stage must match ${STAGE_RE}, got ${JSON.stringify(c.stage)}`);
  int('logCount', c.logCount, 1, 64);
  int('budgets.defaultWorkUnits', c.budgets.defaultWorkUnits, 1, Number.MAX_SAFE_INTEGER);
  // A deployment may lower the evaluator's maximum, never raise it (ADR 0033 refuses larger budgets anyway).
  int('budgets.maxWorkUnits', c.budgets.maxWorkUnits, 1, MAX_WORK_BUDGET);
  if (c.budgets.defaultWorkUnits > c.budgets.maxWorkUnits)
    p.push('budgets.defaultWorkUnits must not exceed budgets.maxWorkUnits');
  int('maxBatchingWindowSeconds', c.maxBatchingWindowSeconds, 0, 300);
  // AWS: an event source on a FIFO queue (the ledger queue, ADR 0270) takes at most 10 records per batch.
  int('batchSize', c.batchSize, 1, 10);
  // FIFO gives each message group (log) one batch in flight: concurrency above the number of logs never runs, and
  // AWS's minimum is 2 (docs/adr/0273-sequencing-configuration.md).
  int('maximumConcurrency', c.maximumConcurrency, 2, Math.max(2, Number.isInteger(c.logCount) ? c.logCount : 2));
  int('sequencerMaximumConcurrency', c.sequencerMaximumConcurrency, 2, 1000);
  int('sequencerMemoryMb', c.sequencerMemoryMb, 128, 10_240);
  int('deliverMaximumConcurrency', c.deliverMaximumConcurrency, 2, 1000);
  int('deliverMemoryMb', c.deliverMemoryMb, 128, 10_240);
  int('functionTimeoutSeconds', c.functionTimeoutSeconds, 1, 900);
  int('visibilityTimeoutFactor', c.visibilityTimeoutFactor, 6, 100);
  // SQS caps visibility timeout at 12 hours.
  if (c.functionTimeoutSeconds * c.visibilityTimeoutFactor > 43_200)
    p.push('functionTimeoutSeconds × visibilityTimeoutFactor must not exceed 43200 s (SQS maximum visibility timeout)');
  int('memoryMb', c.memoryMb, 128, 10_240);
  int('checkpointTimeoutSeconds', c.checkpointTimeoutSeconds, 1, 900);
  int('checkpointMemoryMb', c.checkpointMemoryMb, 128, 10_240);
  if (typeof c.bundleAwsSdk !== 'boolean') p.push('bundleAwsSdk must be a boolean');
  if (!VALID_LOG_RETENTION_DAYS.includes(c.logRetentionDays))
    p.push(
      `logRetentionDays must be one of CloudWatch's values (${VALID_LOG_RETENTION_DAYS.join(', ')}), got ${c.logRetentionDays}`,
    );
  int('queueRetentionSeconds', c.queueRetentionSeconds, 60, 1_209_600);
  int('dlqRetentionSeconds', c.dlqRetentionSeconds, 60, 1_209_600);
  int('maxReceiveCount', c.maxReceiveCount, 5, 1000);
  int('pitrRecoveryDays', c.pitrRecoveryDays, 1, 35);
  if (!/^(rate\(\d+ (minute|minutes|hour|hours|day|days)\)|cron\(.+\))$/.test(c.checkpointSchedule))
    p.push(
      `checkpointSchedule must be an EventBridge rate(...) or cron(...) expression, got ${JSON.stringify(c.checkpointSchedule)}`,
    );
  int('checkpointExportRetentionDays', c.checkpointExportRetentionDays, 1, 36_500);
  if (c.requestArchiveTtlAttribute !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(c.requestArchiveTtlAttribute))
    p.push('requestArchiveTtlAttribute must be a plain attribute name');
  if (c.requestArchiveTtlAttribute === 'pk' || c.requestArchiveTtlAttribute === 'sk')
    p.push('requestArchiveTtlAttribute must not be a key attribute');
  int('alarms.dlqDepth', c.alarms.dlqDepth, 1, 1_000_000);
  int('alarms.intakeAgeOfOldestMessageSeconds', c.alarms.intakeAgeOfOldestMessageSeconds, 60, 1_209_600);
  int('alarms.functionErrors', c.alarms.functionErrors, 1, 1_000_000);
  int('alarms.throttles', c.alarms.throttles, 1, 1_000_000);
  if (!Number.isInteger(c.alarms.periodSeconds) || c.alarms.periodSeconds < 60 || c.alarms.periodSeconds % 60 !== 0)
    p.push('alarms.periodSeconds must be a multiple of 60');
  int('alarms.evaluationPeriods', c.alarms.evaluationPeriods, 1, 100);
  if (c.alarmEmail !== undefined && !/^[^@\s]+@[^@\s]+$/.test(c.alarmEmail))
    p.push('alarmEmail must be an e-mail address');
  if (c.trustPolicy !== undefined) {
    try {
      const t: unknown = JSON.parse(c.trustPolicy);
      if (typeof t !== 'object' || t === null || Array.isArray(t)) p.push('trustPolicy must be a JSON object');
    } catch {
      p.push('trustPolicy must be JSON text');
    }
    if (c.trustPolicy.length > 8192) p.push('trustPolicy must fit an SSM parameter (8 KB)');
  }
  for (const e of c.supportedExtensions)
    if (typeof e !== 'string' || e.length === 0) p.push('supportedExtensions must be non-empty strings');
  p.push(...draftFeatureProblems(c.draftFeatures));
  p.push(...validateRoutes(c.routes));
  const envBytes = estimateRouteEnvironmentBytes(c);
  if (envBytes > LAMBDA_ENV_LIMIT_BYTES - 1024)
    p.push(
      `routes make the function environment too large (~${envBytes} bytes of ROUTE_QUEUES; Lambda allows 4 KB in total)`,
    );
  return p;
}

function validateRoutes(routes: readonly RouteConfig[]): string[] {
  const p: string[] = [];
  if (!Array.isArray(routes)) return ['routes must be an array'];
  const seen = new Set<string>();
  routes.forEach((r, i) => {
    if (!ROUTE_KINDS.includes(r.kind)) p.push(`routes[${i}].kind must be one of ${ROUTE_KINDS.join(', ')}`);
    // §6.7: name is a non-empty display name.
    if (typeof r.name !== 'string' || r.name.length === 0) p.push(`routes[${i}].name must be a non-empty string`);
    if (typeof r.queue !== 'string' || !QUEUE_KEY_RE.test(r.queue))
      p.push(`routes[${i}].queue must match ${QUEUE_KEY_RE}`);
    const key = routeTargetKey(r);
    if (seen.has(key)) p.push(`routes[${i}] maps ${JSON.stringify(key)} a second time`);
    seen.add(key);
  });
  // Output ids drop hyphens; two keys that differ only there ("a-1", "a1") would collide.
  const byOutputId = new Map<string, string>();
  for (const key of new Set(routes.map((r) => r.queue))) {
    const id = routeOutputId(key);
    const other = byOutputId.get(id);
    if (other !== undefined)
      p.push(
        `route queue keys ${JSON.stringify(other)} and ${JSON.stringify(key)} are too alike (both become output ${id})`,
      );
    byOutputId.set(id, key);
  }
  return p;
}

/** The ROUTE_QUEUES key of a route target: "<kind>:<name>" (name exact, as written in the pack). */
export function routeTargetKey(r: { readonly kind: string; readonly name: string }): string {
  return `${r.kind}:${r.name}`;
}

/** Worst-case size of ROUTE_QUEUES once queue URLs resolve (longest region name, 12-digit account). */
function estimateRouteEnvironmentBytes(c: DocketConfig): number {
  const urlBytes = (key: string) =>
    `https://sqs.ap-southeast-5.amazonaws.com/123456789012/docket-${c.stage}-route-${key}`.length;
  let n = 2;
  for (const r of c.routes ?? []) n += Buffer.byteLength(JSON.stringify(routeTargetKey(r))) + urlBytes(r.queue) + 4;
  return n;
}

const VALID_LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

/**
 * ADR 0221: a deployment may enable only known draft features, each once; the entries its
 * evaluator writes record them (format docket.ledger-entry/2, ADR 0220).
 */
function draftFeatureProblems(features: unknown): string[] {
  if (!Array.isArray(features)) return ['draftFeatures must be an array of draft feature names'];
  const p: string[] = [];
  for (const f of features)
    if (typeof f !== 'string' || !isDraftFeature(f))
      p.push(`draftFeatures names unknown feature ${JSON.stringify(f)} (known: ${DRAFT_FEATURES.join(', ')})`);
  if (new Set(features).size !== features.length) p.push('draftFeatures names each feature once');
  return p;
}
