/**
 * The environment of the functions, built in one place for the stack (queue URLs are CloudFormation tokens
 * there) and for the local stack (real local URLs), so both run the handlers with the same variables.
 * No secret ever appears here: the entry key is read at cold start from SIGNING_SECRET_ARN (evaluate only; the
 * deliver function signs nothing); the checkpoint function signs through the KMS key CHECKPOINT_KMS_KEY_ID and never
 * sees the entry key (ADR 0120).
 */
import { routeTargetKey, type DocketConfig } from './config.js';
import type { ResourceNames } from './names.js';

/** Names of the variables, for handlers and the local launcher. */
export const ENV = {
  stage: 'DOCKET_STAGE',
  ledgerTable: 'LEDGER_TABLE',
  packsTable: 'PACKS_TABLE',
  requestsTable: 'REQUESTS_TABLE',
  /** JSON object: "<kind>:<name>" → queue URL. */
  routeQueues: 'ROUTE_QUEUES',
  unroutedQueueUrl: 'UNROUTED_QUEUE_URL',
  /**
   * The evaluate function's rejects queue: requests without a usable id, or whose id is recorded for other bytes, are
   * sent here with their reason as message attributes (ADR 0071, docs/adr/0492-the-evaluate-functions-rejects-have-their-own-queue.md).
   */
  rejectsQueueUrl: 'REJECTS_QUEUE_URL',
  /** The intake queue's DLQ: the checkpoint function's archive cross-check reads it (only SQS's redrive fills it). */
  intakeDlqUrl: 'INTAKE_DLQ_URL',
  /** The results topic every appended entry is published to (docs/pipeline.md "Result notifications"). */
  resultsTopicArn: 'RESULTS_TOPIC_ARN',
  signingSecretArn: 'SIGNING_SECRET_ARN',
  defaultWorkBudget: 'DEFAULT_WORK_BUDGET',
  maxWorkBudget: 'MAX_WORK_BUDGET',
  /** The FIFO ledger queue (docs/adr/0270-one-writer-per-log.md): the sequencer's target, evaluate's forwards. */
  ledgerQueueUrl: 'LEDGER_QUEUE_URL',
  /** The intake queue and the FIFO ledger queue's DLQ: the checkpoint function's archive cross-check reads them. */
  intakeQueueUrl: 'INTAKE_QUEUE_URL',
  ledgerDlqUrl: 'LEDGER_DLQ_URL',
  /** The delivery queue: the evaluate function sends delivery jobs there (docs/adr/0404-delivery-stage.md). */
  deliveryQueueUrl: 'DELIVERY_QUEUE_URL',
  /** Where the deliver function dead-letters a job it refuses, with its reason. */
  deliveryDlqUrl: 'DELIVERY_DLQ_URL',
  /** JSON array of log ids. */
  logIds: 'LOG_IDS',
  /** JSON array of supported extension names (§9). */
  supportedExtensions: 'SUPPORTED_EXTENSIONS',
  /** JSON array of enabled draft feature names (ADR 0190, ADR 0221); absent when none is enabled. */
  draftFeatures: 'DRAFT_FEATURES',
  exportBucket: 'CHECKPOINT_EXPORT_BUCKET',
  /** The checkpoint writer's non-exportable KMS key (adapters/checkpoint-key.ts). */
  checkpointKmsKeyId: 'CHECKPOINT_KMS_KEY_ID',
  /** SSM parameter holding the trust policy the checkpoint writer verifies entries under. */
  trustPolicyParameter: 'TRUST_POLICY_PARAMETER',
} as const;

/** What every function's environment is built from. */
export interface SequenceEnvironmentInput {
  readonly config: DocketConfig;
  readonly names: ResourceNames;
  /** Queue URL by physical queue name, DLQs included (a token in the stack, a real URL locally). */
  readonly queueUrl: (queueName: string) => string;
}

export interface EvaluateEnvironmentInput extends SequenceEnvironmentInput {
  readonly signingSecretArn: string;
}

/** Only when enabled, so a deployment without draft features synthesizes the same template as before. */
function draftFeatureEnvironment(i: Pick<DeliverEnvironmentInput, 'config'>): Record<string, string> {
  return i.config.draftFeatures.length > 0
    ? { [ENV.draftFeatures]: JSON.stringify([...new Set(i.config.draftFeatures)].sort()) }
    : {};
}

export interface DeliverEnvironmentInput extends SequenceEnvironmentInput {
  /** The results topic's ARN (a token in the stack, a real ARN locally). */
  readonly resultsTopicArn: string;
}

export function evaluateEnvironment(i: EvaluateEnvironmentInput): Record<string, string> {
  return {
    [ENV.stage]: i.config.stage,
    [ENV.ledgerTable]: i.names.ledgerTable,
    [ENV.packsTable]: i.names.packsTable,
    [ENV.requestsTable]: i.names.requestsTable,
    // Entries record the draft features they were evaluated under (ADR 0190); handoffs are the deliver function's.
    ...draftFeatureEnvironment(i),
    [ENV.rejectsQueueUrl]: i.queueUrl(i.names.rejectsQueue),
    [ENV.ledgerQueueUrl]: i.queueUrl(i.names.ledgerQueue.queue),
    [ENV.deliveryQueueUrl]: i.queueUrl(i.names.deliveryQueue.queue),
    [ENV.signingSecretArn]: i.signingSecretArn,
    [ENV.defaultWorkBudget]: String(i.config.budgets.defaultWorkUnits),
    [ENV.maxWorkBudget]: String(i.config.budgets.maxWorkUnits),
    [ENV.logIds]: JSON.stringify(i.names.logIds),
    [ENV.supportedExtensions]: JSON.stringify(i.config.supportedExtensions),
  };
}

/**
 * The deliver function (docs/adr/0404-delivery-stage.md): the ledger it reads entries from and writes positions to,
 * the pack registry (target-only packs), where handoffs and notifications go, and its own DLQ. No key.
 */
export function deliverEnvironment(i: DeliverEnvironmentInput): Record<string, string> {
  // The route queues: a handoff's destination, planned and sent by the deliver function.
  const routeQueues: Record<string, string> = {};
  for (const r of i.config.routes) {
    const pair = i.names.routes[r.queue];
    if (pair === undefined) throw new Error(`no queue named for route key ${r.queue}`);
    routeQueues[routeTargetKey(r)] = i.queueUrl(pair.queue);
  }
  return {
    [ENV.stage]: i.config.stage,
    [ENV.ledgerTable]: i.names.ledgerTable,
    [ENV.packsTable]: i.names.packsTable,
    [ENV.routeQueues]: JSON.stringify(routeQueues),
    [ENV.unroutedQueueUrl]: i.queueUrl(i.names.unrouted.queue),
    ...draftFeatureEnvironment(i),
    [ENV.resultsTopicArn]: i.resultsTopicArn,
    [ENV.deliveryDlqUrl]: i.queueUrl(i.names.deliveryQueue.dlq),
  };
}

/** The sequence function: where to forward (the FIFO ledger queue) and the logs that are its message groups. */
export function sequenceEnvironment(i: SequenceEnvironmentInput): Record<string, string> {
  return {
    [ENV.stage]: i.config.stage,
    [ENV.ledgerQueueUrl]: i.queueUrl(i.names.ledgerQueue.queue),
    [ENV.logIds]: JSON.stringify(i.names.logIds),
  };
}

export interface CheckpointEnvironmentInput extends SequenceEnvironmentInput {
  readonly checkpointKeyArn: string;
  readonly exportBucket: string;
}

export function checkpointEnvironment(i: CheckpointEnvironmentInput): Record<string, string> {
  return {
    [ENV.stage]: i.config.stage,
    [ENV.ledgerTable]: i.names.ledgerTable,
    [ENV.logIds]: JSON.stringify(i.names.logIds),
    [ENV.checkpointKmsKeyId]: i.checkpointKeyArn,
    [ENV.trustPolicyParameter]: i.names.trustPolicyParameter,
    [ENV.exportBucket]: i.exportBucket,
    // The archive cross-check before signing (ADR 0457, docs/adr/0487-the-checkpoint-function-cross-checks-the-archive.md):
    // the request archive, the request path's queues and their DLQs.
    [ENV.requestsTable]: i.names.requestsTable,
    [ENV.intakeQueueUrl]: i.queueUrl(i.names.intake.queue),
    [ENV.ledgerQueueUrl]: i.queueUrl(i.names.ledgerQueue.queue),
    [ENV.intakeDlqUrl]: i.queueUrl(i.names.intake.dlq),
    [ENV.ledgerDlqUrl]: i.queueUrl(i.names.ledgerQueue.dlq),
  };
}
