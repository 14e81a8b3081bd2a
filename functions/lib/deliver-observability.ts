/**
 * Structured logs and metrics of the delivery stage (docs/pipeline.md, docs/adr/0404-delivery-stage.md): one line per
 * delivered job naming its log and seqs and how many handoffs it sent, `Handoffs` by route (counted here, once sent),
 * and `DeliveryJobsRefused` by reason for a job that is not a job or names no entry (alarmed in
 * infra/constructs/alarms.ts: only someone other than the evaluate function can have written it). Each handoff's id
 * and destination follow from its signed entry (docs/pipeline.md "Handoffs"), so the line names the seqs, not them;
 * the counts go out once per batch (functions/lib/batch-counts.ts; docs/adr/0502-log-volume-measured-and-cut.md).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { batchCounts } from './batch-counts.js';
import type { DeliverObserver } from './deliver-runtime.js';

export function powertoolsDeliverObserver(serviceName = 'docket-deliver', namespace = 'Docket'): DeliverObserver {
  const logger = new Logger({ serviceName });
  const counts = batchCounts(new Metrics({ namespace, serviceName }));
  return {
    delivered(record, job, result) {
      let handoffs = 0;
      for (const f of result.fannedOut)
        for (const h of f.handoffs) {
          handoffs += 1;
          counts.add('Handoffs', ['route', h.target ? `${h.target.kind}:${h.target.name}` : 'unrouted']);
        }
      logger.info('delivery job delivered', {
        messageId: record.messageId,
        logId: job.logId,
        seqs: job.entries.map((e) => e.seq),
        handoffs,
      });
    },
    refused(record, code, message) {
      logger.error('delivery job refused: dead-lettered with its reason', {
        messageId: record.messageId,
        reason: code,
        detail: message,
      });
      counts.add('DeliveryJobsRefused');
    },
    failed(record, error) {
      const e = error as { name?: string; code?: string; message?: string };
      logger.error('delivery job failed; it will be redelivered', {
        messageId: record.messageId,
        receiveCount: record.receiveCount,
        errorName: e?.name,
        errorCode: e?.code,
        error: e?.message,
      });
      counts.add('DeliveryFailures', ['class', e?.name ?? 'Error']);
    },
    flush() {
      counts.publish();
    },
  };
}
