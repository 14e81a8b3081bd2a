/**
 * The names of the metrics the functions publish about their batches (CloudWatch EMF, namespace `Docket`), in one
 * table for the three places that must agree on them: the functions that emit them (functions/lib/batch-metrics.ts,
 * functions/lib/observability.ts), the stack's dashboard that draws them (infra/constructs/dashboard.ts) and
 * `docket bench live`, which reads them back (cli/bench/). docs/deploy.md "Observe it" says what each one measures.
 */
export const DOCKET_METRICS = Object.freeze({
  namespace: 'Docket',
  /** Per log (dimensions service, logId): the evaluate invocation, invoked → answered, under the log's FIFO lock. */
  batchCycle: 'BatchCycleMs',
  /** Per log: the records of that log in one batch (the batch fill). */
  batchRecords: 'BatchRecords',
  /** Per log, per record: sent to the FIFO ledger queue → its batch invoked. */
  ledgerQueueWait: 'LedgerQueueWaitMs',
  /** Per log, per record answered: sent to the intake queue → its batch answered (entry written, job sent). */
  requestToEntry: 'RequestToEntryMs',
  /** Per function and table (dimensions service, table): DynamoDB write units consumed (ReturnConsumedCapacity). */
  writeUnits: 'ConsumedWriteUnits',
  /** Per function and table: DynamoDB read units consumed. */
  readUnits: 'ConsumedReadUnits',
  /** Per log (dimensions service, logId): one per entry created. */
  appends: 'Appends',
});

/** The `service` dimension of each function's metrics (Powertools' serviceName). */
export const DOCKET_SERVICES = Object.freeze({
  sequence: 'docket-sequence',
  evaluate: 'docket-evaluate',
  deliver: 'docket-deliver',
  checkpoint: 'docket-checkpoint',
});
