/**
 * Structured logs and metrics of the delivery stage (docs/pipeline.md, docs/adr/0404-delivery-stage.md): one line per
 * delivered job naming its entries and what they sent, `Handoffs` by route (counted here, once sent), and
 * `DeliveryJobsRefused` by reason for a job that is not a job or names no entry (alarmed in
 * infra/constructs/alarms.ts: only someone other than the evaluate function can have written it).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { DeliverObserver } from './deliver-runtime.js';

export function powertoolsDeliverObserver(serviceName = 'docket-deliver', namespace = 'Docket'): DeliverObserver {
  const logger = new Logger({ serviceName });
  const single = new Metrics({ namespace, serviceName }).singleMetric();
  const count = (name: string, dimension: string, value: string): void => {
    single.addDimension(dimension, value);
    single.addMetric(name, MetricUnit.Count, 1);
  };
  return {
    delivered(record, job, result) {
      logger.info('delivery job delivered', {
        messageId: record.messageId,
        logId: job.logId,
        entries: job.entries.map((e, i) => ({
          seq: e.seq,
          requestId: e.requestId,
          handoffs: result.fannedOut[i]!.handoffs.map((h) => ({ handoffId: h.handoffId, destination: h.destination })),
        })),
      });
      for (const f of result.fannedOut)
        for (const h of f.handoffs)
          count('Handoffs', 'route', h.target ? `${h.target.kind}:${h.target.name}` : 'unrouted');
    },
    refused(record, code, message) {
      logger.error('delivery job refused: dead-lettered with its reason', {
        messageId: record.messageId,
        reason: code,
        detail: message,
      });
      single.addMetric('DeliveryJobsRefused', MetricUnit.Count, 1);
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
      count('DeliveryFailures', 'class', e?.name ?? 'Error');
    },
    flush() {
      // Each count is a single metric, emitted (EMF) when added (functions/lib/observability.ts says why).
    },
  };
}
