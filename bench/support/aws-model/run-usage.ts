/**
 * What a scale-model run's figures mean for sizing: the batch cycle of a log and its steps, the units every
 * evaluation costs in each table, and the run's use of each priced service (cost-model.ts prices it).
 */
import type { DocketConfig } from '../../../infra/config.js';
import { LOG_BYTES, type Usage } from './cost-model.js';
import type { BatchBreakdown, FunctionName, RunFigures } from './scale-model.js';

/**
 * One log's batch cycle, mean ms, and its steps in the order they hold the FIFO group: taken → handler runs (poll +
 * invoke), head read, claims and archive puts (the slowest of them), bundle put, delivery job send, delete, and the
 * time from the group freed to its next batch taken. A log records `recordsPerBatch` requests per cycle (the requests
 * its batch's ledger messages carry).
 */
export interface BatchCycle {
  readonly meanMs: number;
  readonly recordsPerBatch: number;
  /** A log's ceiling at this cycle, appends/s: records per batch ÷ the cycle (the backlog's end waits for its slowest log). */
  readonly perLogCeiling: number;
  readonly steps: {
    readonly receiveAndInvoke: number;
    readonly headRead: number;
    readonly claimsAndArchive: number;
    readonly bundlePut: number;
    readonly jobSend: number;
    readonly delete: number;
    readonly unlockToNextTake: number;
  };
}

export function batchCycle(b: BatchBreakdown): BatchCycle {
  // The lock is held from the take to the delete; steps before the first slot write are split at the head read.
  const steps = {
    receiveAndInvoke: b.receiveToInvokeMs,
    headRead: b.headReadMs,
    claimsAndArchive: b.claimsMs,
    bundlePut: b.slotWritesMs,
    jobSend: b.afterSlotsMs,
    delete: b.deleteMs,
    unlockToNextTake: b.unlockToNextTakeMs,
  };
  const meanMs = Object.values(steps).reduce((x, y) => x + y, 0);
  return {
    meanMs,
    recordsPerBatch: b.recordsPerBatch,
    perLogCeiling: meanMs > 0 ? (b.recordsPerBatch * 1000) / meanMs : 0,
    steps,
  };
}

/** Units per evaluation of every table the run metered, and their sum. */
export function unitsPerEvaluation(perTable: Readonly<Record<string, number>>): Record<string, number> {
  return { ...perTable, total: Object.values(perTable).reduce((a, b) => a + b, 0) };
}

/**
 * The run's use of each priced service: request units of every table, SQS requests as priced (each started 64 KB of a
 * call's payload one; each requester's SendMessage included: one standard request per evaluation), SNS publishes, Lambda requests and GB-seconds at the deployment's
 * memory sizes, and log bytes (cost-model.ts assumptions).
 */
export function usageOf(run: RunFigures, deployment: DocketConfig): Usage {
  const n = run.appends;
  const sum = (r: Readonly<Record<string, number>>) => Object.values(r).reduce((a, b) => a + b, 0);
  const memory: Record<FunctionName, number> = {
    sequence: deployment.sequencerMemoryMb,
    evaluate: deployment.memoryMb,
    deliver: deployment.deliverMemoryMb,
  };
  const fns = Object.keys(memory) as FunctionName[];
  const invocations = fns.reduce((a, f) => a + run.lambda.invocations[f], 0);
  return {
    evaluations: n,
    wru: sum(run.unitsPerEntry.wcu) * n,
    rru: sum(run.unitsPerEntry.rcu) * n,
    sqsStandardRequests: run.messagingRequests['sqs-standard'] + n,
    sqsFifoRequests: run.messagingRequests['sqs-fifo'],
    snsPublishes: run.messagingRequests.sns,
    lambdaRequests: invocations,
    lambdaGbSeconds: fns.reduce((a, f) => a + (run.lambda.invokedMs[f] / 1000) * (memory[f] / 1024), 0),
    logBytes:
      n * LOG_BYTES.perEvaluation + fns.reduce((a, f) => a + run.lambda.invocations[f] * LOG_BYTES.perInvocation[f], 0),
  };
}
