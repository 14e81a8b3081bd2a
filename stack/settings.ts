/**
 * Where the pipeline commands (`docket submit`, `show`, `tail`, `handoffs`, `publish`, `replay`, `checkpoint`) find
 * the stack: each setting from its flag, then the environment, then the local stack's default — so with no flags
 * they talk to the stack `npm start` brought up (docs/adr/0076-cli-settings-and-local-defaults.md). Pure: the
 * environment is passed in.
 */
export const LOCAL_ENDPOINT = 'http://127.0.0.1:4566';
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_STAGE = 'local';

export interface StackSettings {
  /** undefined = the AWS SDK's own endpoints (a real account). */
  readonly endpoint: string | undefined;
  readonly region: string;
  readonly stage: string;
  readonly ledgerTable: string;
  readonly packsTable: string;
  readonly requestsTable: string;
  /** Queue names (URLs are looked up with GetQueueUrl unless given as a URL). */
  readonly intakeQueue: string;
  readonly queuePrefix: string;
}

export interface SettingFlags {
  readonly endpoint?: string;
  readonly region?: string;
  readonly stage?: string;
  readonly table?: string;
  readonly 'packs-table'?: string;
  readonly 'requests-table'?: string;
  readonly queue?: string;
}

/** The flags every pipeline command accepts (node:util parseArgs shape). */
export const SETTING_FLAGS = {
  endpoint: { type: 'string' },
  region: { type: 'string' },
  stage: { type: 'string' },
  table: { type: 'string' },
  'packs-table': { type: 'string' },
  'requests-table': { type: 'string' },
  queue: { type: 'string' },
} as const;

export const SETTINGS_HELP = `stack options (flag, then environment, then the local default):
  --endpoint <url|aws>     DOCKET_ENDPOINT, AWS_ENDPOINT_URL        default ${LOCAL_ENDPOINT} ("aws" = AWS's own endpoints)
  --region <name>          AWS_REGION, AWS_DEFAULT_REGION          default ${LOCAL_REGION}
  --stage <name>           DOCKET_STAGE                            default ${LOCAL_STAGE}
  --table <name>           LEDGER_TABLE                            default docket-<stage>-ledger
  --packs-table <name>     PACKS_TABLE                             default docket-<stage>-packs
  --requests-table <name>  REQUESTS_TABLE                          default docket-<stage>-requests
  --queue <name|url>       INTAKE_QUEUE                            default docket-<stage>-intake`;

const nonEmpty = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === '' ? undefined : v.trim();

export function resolveSettings(flags: SettingFlags, env: Readonly<Record<string, string | undefined>>): StackSettings {
  const rawEndpoint =
    nonEmpty(flags.endpoint) ?? nonEmpty(env.DOCKET_ENDPOINT) ?? nonEmpty(env.AWS_ENDPOINT_URL) ?? LOCAL_ENDPOINT;
  const endpoint = rawEndpoint === 'aws' ? undefined : rawEndpoint;
  const stage = nonEmpty(flags.stage) ?? nonEmpty(env.DOCKET_STAGE) ?? LOCAL_STAGE;
  const prefix = `docket-${stage}`;
  return {
    endpoint,
    region: nonEmpty(flags.region) ?? nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? LOCAL_REGION,
    stage,
    ledgerTable: nonEmpty(flags.table) ?? nonEmpty(env.LEDGER_TABLE) ?? `${prefix}-ledger`,
    packsTable: nonEmpty(flags['packs-table']) ?? nonEmpty(env.PACKS_TABLE) ?? `${prefix}-packs`,
    requestsTable: nonEmpty(flags['requests-table']) ?? nonEmpty(env.REQUESTS_TABLE) ?? `${prefix}-requests`,
    intakeQueue: nonEmpty(flags.queue) ?? nonEmpty(env.INTAKE_QUEUE) ?? `${prefix}-intake`,
    queuePrefix: prefix,
  };
}

/**
 * The queues a request passes through between `docket submit` and the evaluate function, in order: what `docket
 * verify` reads before it excuses an archived request without an entry as possibly in flight (ADR 0292). A stage that
 * adds a queue on that path adds it here, one line.
 */
export function requestPathQueues(s: StackSettings): readonly string[] {
  // The intake, then the FIFO ledger queue the sequence function forwards to (ADR 0270; infra/names.ts).
  return [s.intakeQueue, `${s.queuePrefix}-ledger.fifo`];
}

/** The FIFO ledger queue's dead-letter queue (infra/names.ts `ledgerQueue.dlq`). */
export const ledgerDlqName = (s: StackSettings): string => `${s.queuePrefix}-ledger-dlq.fifo`;

/** The intake queue's dead-letter queue (infra/names.ts `intake.dlq`): only SQS's redrive fills it (ADR 0455). */
export const intakeDlqName = (s: StackSettings): string => `${s.queuePrefix}-intake-dlq`;

/** The physical queue name of a route key ("review" → docket-<stage>-route-review; "unrouted"; "intake-dlq"). */
export function routeQueueName(s: StackSettings, route: string): string {
  if (route === 'unrouted' || route === 'intake-dlq' || route === 'unrouted-dlq' || route === 'intake')
    return `${s.queuePrefix}-${route}`;
  if (route.startsWith(`${s.queuePrefix}-`)) return route;
  return `${s.queuePrefix}-route-${route}`;
}
