// A route-queue consumer built with @docket/consumer, run as the Lambda event source mapping would run it: one
// receive of the route queue's records, the handler, then a delete of every record not in batchItemFailures.
// Prints what it received, the handler's response, what it handled and what it refused (JSON).
import { readFileSync } from 'node:fs';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoDbSeenHandoffs, handoffConsumer } from '@docket/consumer';

const c = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const aws = { endpoint: c.endpoint, region: c.region, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
const sqs = new SQSClient(aws);
const handled = [];
const refused = [];
const handler = handoffConsumer({
  policy: readFileSync(c.policyPath),
  routeQueue: c.routeQueue,
  deadLetterQueueUrl: c.dlqUrl,
  sqs,
  seen: dynamoDbSeenHandoffs({ client: new DynamoDBClient(aws), tableName: c.seenTable }),
  handle: async (h) => {
    if (c.failHandle) throw new Error('downstream unavailable');
    handled.push({ handoffId: h.handoffId, requestId: h.requestId, routeIndex: h.routeIndex });
  },
  onRefused: (r) => refused.push(r),
});
const records = [];
const until = Date.now() + 15_000;
while (records.length < c.expect && Date.now() < until) {
  const r = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: c.queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 1,
      VisibilityTimeout: 3,
    }),
  );
  for (const m of r.Messages ?? [])
    records.push({ messageId: m.MessageId, receiptHandle: m.ReceiptHandle, body: m.Body });
}
const response = await handler({ Records: records });
const failed = new Set(response.batchItemFailures.map((f) => f.itemIdentifier));
const done = records.filter((r) => !failed.has(r.messageId));
if (done.length > 0)
  await sqs.send(
    new DeleteMessageBatchCommand({
      QueueUrl: c.queueUrl,
      Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
    }),
  );
sqs.destroy();
process.stdout.write(
  JSON.stringify({
    records: records.map((r) => ({ messageId: r.messageId, body: r.body })),
    response,
    handled,
    refused,
  }),
);
