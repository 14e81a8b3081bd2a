/**
 * Structured logs and metrics of the evaluate function (docs/pipeline.md): Powertools Logger (JSON lines with request
 * id, pack digest, log position, outcome kind, work units) and Powertools Metrics (CloudWatch EMF): evaluations by
 * kind, errors by class, dead letters by reason (the deliver function counts handoffs:
 * functions/lib/deliver-observability.ts). No secret or document content is ever logged.
 * A log whose head moved below a seq this instance wrote is an ERROR line and the metric `LedgerHeadRegressed`
 * (alarmed in infra/constructs/alarms.ts; docs/adr/0271-head-regression-is-an-attack.md).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { LedgerWriteError, type BatchObserver, type BatchRecord } from '../../core/pipeline/index.js';
import type { BatchOutcome } from '../../core/pipeline/index.js';
import { DOCKET_METRICS } from '../../core/metric-names.js';

export interface Observability extends BatchObserver {
  flush(): void;
}

export function powertoolsObservability(serviceName = 'docket-evaluate', namespace = 'Docket'): Observability {
  const logger = new Logger({ serviceName });
  const metrics = new Metrics({ namespace, serviceName });
  // One single-metric instance, reused: its addMetric publishes at once and then clears the metric and its
  // dimensions (the default ones stay), so each count is still its own EMF line — without constructing a Metrics
  // object (config, env and validation) per count, which cost more than a record's ledger signing.
  const single = metrics.singleMetric();
  const count = (name: string, dimension: string, value: string): void => {
    single.addDimension(dimension, value);
    single.addMetric(name, MetricUnit.Count, 1);
  };
  return {
    outcome(record: BatchRecord, o: BatchOutcome) {
      if (o.status === 'dead-letter') {
        logger.warn('request sent to the rejects queue', {
          messageId: record.messageId,
          requestId: o.requestId,
          reason: o.code,
          detail: o.message,
        });
        count('Rejects', 'reason', o.code);
        return;
      }
      if (o.status === 'forwarded') {
        logger.warn('request forwarded to the log its claim fixes', {
          messageId: record.messageId,
          requestId: o.requestId,
          logId: o.logId,
          group: record.groupId,
        });
        count('ClaimForwards', 'logId', o.logId);
        return;
      }
      // Either way the batch's delivery job names the entry: the delivery stage (re-)sends what it owes.
      logger.info(o.created ? 'request recorded' : 'duplicate delivery: entry already recorded', {
        messageId: record.messageId,
        requestId: o.requestId,
        packDigest: o.packDigest,
        logId: o.logId,
        seq: o.seq,
        entryHash: o.entryHash,
        outcome: o.kind,
        work: o.work,
        ...(o.errorClass ? { errorClass: o.errorClass } : {}),
        ...(o.refusalCode ? { refusalCode: o.refusalCode } : {}),
      });
      if (o.created) {
        count('Evaluations', 'kind', o.kind);
        // Per log: the dashboard's appends/s (infra/constructs/dashboard.ts; the name: core/metric-names.ts).
        count(DOCKET_METRICS.appends, 'logId', o.logId);
        if (o.errorClass) count('EvaluationErrors', 'class', o.errorClass);
        if (o.refusalCode) count('AdmissionRefusals', 'code', o.refusalCode);
      } else count('DuplicateDeliveries', 'kind', o.kind);
    },
    failure(record: BatchRecord, error: unknown) {
      const e = error as { name?: string; code?: string; message?: string };
      if (error instanceof LedgerWriteError && error.code === 'head-regressed') {
        // Only a deletion moves a head backwards: an attack on the ledger, alarmed without a per-log dimension so
        // one alarm covers every log; the log is in the line.
        logger.error('ledger head regressed: refusing to append to this log', {
          messageId: record.messageId,
          requestId: error.requestId,
          logId: error.logId,
          headSeq: error.detail.headSeq,
          writtenSeq: error.detail.writtenSeq,
        });
        single.addMetric('LedgerHeadRegressed', MetricUnit.Count, 1);
      }
      logger.error('record failed; it will be redelivered', {
        messageId: record.messageId,
        receiveCount: record.receiveCount,
        errorName: e?.name,
        errorCode: e?.code,
        error: e?.message,
      });
      count('RecordFailures', 'class', e?.name ?? 'Error');
    },
    flush() {
      // Each count is a single metric, emitted (EMF) the moment it is added: the shared buffer is always empty, and
      // publishing an empty buffer only prints Powertools' "No application metrics to publish" warning per batch.
    },
  };
}

export const silentObservability: Observability = { outcome() {}, failure() {}, flush() {} };
