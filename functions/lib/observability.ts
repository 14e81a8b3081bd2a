/**
 * Structured logs and metrics of the evaluate function (docs/pipeline.md): Powertools Logger JSON lines and Powertools
 * Metrics (CloudWatch EMF): evaluations by kind, errors by class, dead letters by reason (the deliver function counts
 * handoffs: functions/lib/deliver-observability.ts). No secret or document content is ever logged.
 *
 * What every record's entry says — request id, pack digest, seq, entry hash, outcome, work — the ledger holds, signed;
 * the logs carry one line per log and batch naming the seqs it recorded, and the counts go out once per batch
 * (functions/lib/batch-counts.ts). What the ledger does not show keeps a line per record: a duplicate delivery, a
 * request forwarded to another log or sent to the rejects queue, a record that failed
 * (docs/adr/0502-log-volume-measured-and-cut.md).
 * A log whose head moved below a seq this instance wrote is an ERROR line and the metric `LedgerHeadRegressed`
 * (alarmed in infra/constructs/alarms.ts; docs/adr/0271-head-regression-is-an-attack.md).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { LedgerWriteError, type BatchObserver, type BatchRecord } from '../../core/pipeline/index.js';
import type { BatchOutcome } from '../../core/pipeline/index.js';
import { DOCKET_METRICS } from '../../core/metric-names.js';
import { batchCounts } from './batch-counts.js';

export interface Observability extends BatchObserver {
  /** The batch has ended: its summary lines and its counts are printed. */
  flush(): void;
}

export function powertoolsObservability(serviceName = 'docket-evaluate', namespace = 'Docket'): Observability {
  const logger = new Logger({ serviceName });
  const counts = batchCounts(new Metrics({ namespace, serviceName }));
  /** Per log, this batch's new entries: their seqs and how many of each outcome kind. */
  let recorded = new Map<string, { seqs: number[]; outcomes: Record<string, number> }>();
  return {
    outcome(record: BatchRecord, o: BatchOutcome) {
      if (o.status === 'dead-letter') {
        logger.warn('request sent to the rejects queue', {
          messageId: record.messageId,
          requestId: o.requestId,
          reason: o.code,
          detail: o.message,
        });
        counts.add('Rejects', ['reason', o.code]);
        return;
      }
      if (o.status === 'forwarded') {
        logger.warn('request forwarded to the log its claim fixes', {
          messageId: record.messageId,
          requestId: o.requestId,
          logId: o.logId,
          group: record.groupId,
        });
        counts.add('ClaimForwards', ['logId', o.logId]);
        return;
      }
      // Either way the batch's delivery job names the entry: the delivery stage (re-)sends what it owes.
      if (!o.created) {
        logger.info('duplicate delivery: entry already recorded', {
          messageId: record.messageId,
          requestId: o.requestId,
          packDigest: o.packDigest,
          logId: o.logId,
          seq: o.seq,
          entryHash: o.entryHash,
          outcome: o.kind,
          work: o.work,
        });
        counts.add('DuplicateDeliveries', ['kind', o.kind]);
        return;
      }
      let log = recorded.get(o.logId);
      if (log === undefined) recorded.set(o.logId, (log = { seqs: [], outcomes: {} }));
      log.seqs.push(o.seq);
      log.outcomes[o.kind] = (log.outcomes[o.kind] ?? 0) + 1;
      counts.add('Evaluations', ['kind', o.kind]);
      // Per log: the dashboard's appends/s (infra/constructs/dashboard.ts; the name: core/metric-names.ts).
      counts.add(DOCKET_METRICS.appends, ['logId', o.logId]);
      if (o.errorClass) counts.add('EvaluationErrors', ['class', o.errorClass]);
      if (o.refusalCode) counts.add('AdmissionRefusals', ['code', o.refusalCode]);
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
        counts.add('LedgerHeadRegressed');
      }
      logger.error('record failed; it will be redelivered', {
        messageId: record.messageId,
        receiveCount: record.receiveCount,
        errorName: e?.name,
        errorCode: e?.code,
        error: e?.message,
      });
      counts.add('RecordFailures', ['class', e?.name ?? 'Error']);
    },
    flush() {
      const batch = recorded;
      recorded = new Map();
      // Each seq's entry is in the ledger (docket show, docket verify): the line says which seqs this batch wrote.
      for (const [logId, { seqs, outcomes }] of batch) logger.info('entries recorded', { logId, seqs, outcomes });
      counts.publish();
    },
  };
}

export const silentObservability: Observability = { outcome() {}, failure() {}, flush() {} };
