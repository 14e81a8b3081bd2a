/**
 * @docket/consumer's record handler composed with Powertools' batch processing, as packages/consumer/README.md
 * ("With Powertools batch processing") documents it (docs/adr/0490-powertools-batch-as-a-test-only-dependency.md):
 * handoff messages built by the pipeline's own builder are sent to a route queue of the local stack, received back as
 * SQS messages, turned into Lambda SQS event records (the event-source poller's mapping) and given to
 * `processPartialResponse` with a `BatchProcessor(EventType.SQS)` and `handoffRecordHandler`.
 *
 * A refused (forged) record is finished — sent to the DLQ with its reason, then acknowledged — so it is reported in
 * `batchItemFailures` only when it could not be finished (the DLQ send failed); a batch in which every record must
 * be retried is a thrown FullBatchFailureError, never an empty failure list (the bug ADR 0001 avoided).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { BatchProcessor, EventType, FullBatchFailureError, processPartialResponse } from '@aws-lambda-powertools/batch';
import canonicalize from 'canonicalize';
import type { SQSEvent } from 'aws-lambda';
import { handoffRecordHandler, HandoffRecordError } from '../../adapters/handoff-consumer.js';
import { createSqsClient } from '../../adapters/aws-clients.js';
import { getQueueAttributes, receiveMessages, sendMessages } from '../../adapters/sqs.js';
import { entryHashOf } from '../../core/ledger/entries/entry.js';
import { handoffId, handoffMessageBytes, type HandoffMessage } from '../../core/pipeline/handoff-message.js';
import { startLocalStack, type LocalStack } from '../../localstack/launcher.js';
import { toRecord } from '../../localstack/event-source-poller.js';
import { fixtureTemplate } from '../localstack/fixture-template.js';
import { POLICY, ROUTED, signedDisposition } from '../pipeline/handoff-fixtures.js';

let stack: LocalStack;
let sqs: SQSClient;
beforeAll(async () => {
  stack = await startLocalStack({ port: 0, template: fixtureTemplate('pt') });
  sqs = createSqsClient({ endpoint: stack.endpoint });
});
afterAll(async () => {
  sqs?.destroy();
  await stack?.stop();
});

const routeQueue = { key: 'oversight', routeQueues: { 'queue:Review': 'review', 'human-role:Oversight': 'oversight' } };
const oversightHandoff = (requestId: string): string =>
  handoffMessageBytes({
    entryBody: signedDisposition(ROUTED, { requestId }).body,
    routeIndex: 1,
    shape: 'route',
    destination: 'configured',
    target: { kind: 'human-role', name: 'Oversight' },
  }).body;
const genuineA = oversightHandoff('req-pt-a');
const genuineB = oversightHandoff('req-pt-b');
/** A genuine message with its entry's request id changed, the signature kept and the handoff id recomputed. */
const forged = (() => {
  const m = JSON.parse(oversightHandoff('req-pt-c')) as Record<string, unknown>;
  const altered = (m.entry as string).replace('"requestId":"req-pt-c"', '"requestId":"req-pt-forged"');
  expect(altered).not.toBe(m.entry);
  return canonicalize({ ...m, entry: altered, handoffId: handoffId(entryHashOf(altered), 1) })!;
})();

let counter = 0;
/** A fresh route queue and its DLQ on the local stack. */
async function routeQueuePair(): Promise<{ url: string; arn: string; dlqUrl: string }> {
  const name = `pt-route-${counter++}-${Date.now().toString(36)}`;
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const q = await sqs.send(new CreateQueueCommand({ QueueName: name }));
  return { url: q.QueueUrl!, arn: (await getQueueAttributes(sqs, q.QueueUrl!)).QueueArn!, dlqUrl: dlq.QueueUrl! };
}

/** Sends the bodies to the queue and receives them back as one Lambda SQS event, with each body's messageId. */
async function eventOf(q: { url: string; arn: string }, bodies: readonly string[]) {
  const sent = await sendMessages(
    sqs,
    q.url,
    bodies.map((body) => ({ body })),
  );
  const messages = [];
  while (messages.length < bodies.length)
    messages.push(...(await receiveMessages(sqs, q.url, { waitTimeSeconds: 1, visibilityTimeout: 60 })));
  const event: SQSEvent = { Records: messages.map((m) => toRecord(m, q.arn)) };
  expect(event.Records.map((r) => r.eventSource)).toEqual(bodies.map(() => 'aws:sqs'));
  return { event, ids: sent.map((s) => s.messageId) };
}

/** Powertools' processPartialResponse over the consumer's record handler, as the package README shows it. */
function powertoolsHandler(o: { deadLetterQueueUrl: string; handle?: (h: HandoffMessage) => unknown }) {
  const handled: string[] = [];
  const refused: { messageId: string; reason: string }[] = [];
  const onRecord = handoffRecordHandler({
    policy: POLICY,
    routeQueue,
    deadLetterQueueUrl: o.deadLetterQueueUrl,
    sqs,
    handle: o.handle ?? ((h) => void handled.push(h.requestId)),
    onRefused: (r) => refused.push({ messageId: r.messageId, reason: r.reason }),
  });
  const processor = new BatchProcessor(EventType.SQS);
  return { handler: (event: SQSEvent) => processPartialResponse(event, onRecord, processor), handled, refused };
}

describe('handoffRecordHandler under Powertools BatchProcessor / processPartialResponse', () => {
  it('handles the genuine handoffs, dead-letters the forged one with its reason and reports no failure', async () => {
    const q = await routeQueuePair();
    const { event, ids } = await eventOf(q, [genuineA, forged, genuineB]);
    const p = powertoolsHandler({ deadLetterQueueUrl: q.dlqUrl });
    expect(await p.handler(event)).toEqual({ batchItemFailures: [] });
    expect(p.handled.sort()).toEqual(['req-pt-a', 'req-pt-b']);
    expect(p.refused).toEqual([{ messageId: ids[1], reason: 'signature-mismatch' }]);
    const dlq = await receiveMessages(sqs, q.dlqUrl, { waitTimeSeconds: 1 });
    expect(dlq.map((m) => [m.Body, m.MessageAttributes?.DocketReason?.StringValue])).toEqual([
      [forged, 'signature-mismatch'],
    ]);
  });

  it('reports exactly the forged record by its messageId when its DLQ send fails, and handles the genuine ones', async () => {
    const q = await routeQueuePair();
    const { event, ids } = await eventOf(q, [genuineA, forged, genuineB]);
    // A DLQ that does not exist: the local SQS refuses the send, so the refused record cannot be finished.
    const p = powertoolsHandler({ deadLetterQueueUrl: `${q.dlqUrl}-missing` });
    expect(await p.handler(event)).toEqual({ batchItemFailures: [{ itemIdentifier: ids[1] }] });
    expect(p.handled.sort()).toEqual(['req-pt-a', 'req-pt-b']);
    expect(p.refused).toEqual([]);
  });

  it('fails the whole invocation when every record must be retried, never answering an empty failure list', async () => {
    const q = await routeQueuePair();
    const { event } = await eventOf(q, [genuineA, genuineB]);
    const p = powertoolsHandler({
      deadLetterQueueUrl: q.dlqUrl,
      handle: () => {
        throw new Error('downstream unavailable');
      },
    });
    const outcome = await p.handler(event).then(
      (answer) => ({ answer }),
      (e: unknown) => ({ error: e }),
    );
    expect(outcome).toMatchObject({ error: expect.any(FullBatchFailureError) });
    const errors = (outcome as { error: FullBatchFailureError }).error.recordErrors;
    expect(errors.map((e) => (e instanceof HandoffRecordError ? e.code : e))).toEqual([
      'handle-failed',
      'handle-failed',
    ]);
  });
});
