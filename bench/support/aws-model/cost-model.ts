/**
 * The AWS scale model's cost per million evaluations (docs/adr/0472-scale-model-cost-and-table-quota.md): a run's
 * measured use — request units of every table, SQS requests standard and FIFO, SNS publishes, Lambda requests and
 * GB-seconds — priced at on-demand us-east-1 list prices, plus CloudWatch Logs ingestion of the functions' measured
 * log volume.
 * Prices as cited in docs/deploy.md "Cost model per million evaluations"; they change: re-check before quoting.
 * Free tiers, storage and per-stage fixed costs are left out (docs/deploy.md lists them).
 */

export interface Prices {
  /** The date the prices were last checked. */
  readonly checked: string;
  /** DynamoDB on-demand, per million write / read request units (after the November 2024 reduction). */
  readonly dynamodbWruPerMillion: number;
  readonly dynamodbRruPerMillion: number;
  /** SQS, per million requests (each 64 KB chunk of a request is one). */
  readonly sqsStandardPerMillion: number;
  readonly sqsFifoPerMillion: number;
  /** SNS standard topic, per million publish requests (deliveries to SQS queues are free). */
  readonly snsPublishPerMillion: number;
  readonly lambdaRequestsPerMillion: number;
  /** Lambda arm64, per GB-second. */
  readonly lambdaArmGbSecond: number;
  /** CloudWatch Logs standard ingestion, per GB. */
  readonly logsIngestionPerGb: number;
}

export const US_EAST_1: Prices = Object.freeze({
  checked: '2026-12-07',
  dynamodbWruPerMillion: 0.625,
  dynamodbRruPerMillion: 0.125,
  sqsStandardPerMillion: 0.4,
  sqsFifoPerMillion: 0.5,
  snsPublishPerMillion: 0.5,
  lambdaRequestsPerMillion: 0.2,
  lambdaArmGbSecond: 0.0000133334,
  logsIngestionPerGb: 0.5,
});

/**
 * SQS and SNS bill each started 64 KB of a call's payload as one request (SQS pricing: "each 64 KB chunk of a payload
 * is billed as 1 request"): a FIFO receive of ten ledger messages of ten requests each (~7 KB apiece) is two.
 */
export const PRICED_CHUNK_BYTES = 64 * 1024;

/** The requests one call of `payloadBytes` is priced as (at least one: a delete, an empty receive). */
export const pricedRequests = (payloadBytes: number): number =>
  Math.max(1, Math.ceil(payloadBytes / PRICED_CHUNK_BYTES));

/**
 * Log bytes CloudWatch Logs ingests per evaluation and per invocation of each function: docs/adr/0502-log-volume-measured-and-cut.md
 * ("The model prices the measured volume"). `npx vitest run test/bench/log-volume.test.ts` prints what the functions
 * print and fails when a constant is below it.
 */
export const LOG_BYTES = Object.freeze({
  perEvaluation: 40,
  perInvocation: Object.freeze({ sequence: 0, evaluate: 2100, deliver: 1100 }),
});

/** What a run used, totals over `evaluations` requests. */
export interface Usage {
  readonly evaluations: number;
  /** Write and read request units of every table. */
  readonly wru: number;
  readonly rru: number;
  /** SQS requests as priced (64 KB chunks of payload): the requesters' own sends included. */
  readonly sqsStandardRequests: number;
  readonly sqsFifoRequests: number;
  readonly snsPublishes: number;
  readonly lambdaRequests: number;
  readonly lambdaGbSeconds: number;
  readonly logBytes: number;
}

export interface Cost {
  /** Dollars per million evaluations, in all and by item. */
  readonly total: number;
  readonly items: {
    readonly dynamodbWrites: number;
    readonly dynamodbReads: number;
    readonly sqsStandard: number;
    readonly sqsFifo: number;
    readonly sns: number;
    readonly lambdaRequests: number;
    readonly lambdaDuration: number;
    readonly logs: number;
  };
}

const GB = 1024 ** 3;

/** Dollars per million evaluations of `u` at `prices`. */
export function costPerMillion(u: Usage, prices: Prices = US_EAST_1): Cost {
  if (!(u.evaluations > 0)) throw new RangeError('a cost per evaluation needs at least one evaluation');
  // Per million evaluations, each count per evaluation × 10⁶ × price per 10⁶ = count per evaluation × price.
  const per = (count: number, pricePerMillion: number) => (count / u.evaluations) * pricePerMillion;
  const items = {
    dynamodbWrites: per(u.wru, prices.dynamodbWruPerMillion),
    dynamodbReads: per(u.rru, prices.dynamodbRruPerMillion),
    sqsStandard: per(u.sqsStandardRequests, prices.sqsStandardPerMillion),
    sqsFifo: per(u.sqsFifoRequests, prices.sqsFifoPerMillion),
    sns: per(u.snsPublishes, prices.snsPublishPerMillion),
    lambdaRequests: per(u.lambdaRequests, prices.lambdaRequestsPerMillion),
    lambdaDuration: (u.lambdaGbSeconds / u.evaluations) * 1e6 * prices.lambdaArmGbSecond,
    logs: (u.logBytes / u.evaluations / GB) * 1e6 * prices.logsIngestionPerGb,
  };
  return { total: Object.values(items).reduce((a, b) => a + b, 0), items };
}
