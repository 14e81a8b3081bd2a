/**
 * The Lambda modules themselves (functions/evaluate.ts and functions/deliver.ts `handler`): cold start from the
 * environment (key file, build digest, configuration), an SQS event of the FIFO ledger queue — one ledger message
 * carrying three requests (a valid one, an unidentifiable one, an unknown pack; ADR 0497) and one body that is not a
 * ledger message, read as one request — and the partial batch response, against the local stack; the delivery job it
 * sent, handed to the deliver module, places the entries; then the checkpoint Lambda module on demand.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { writeSigningKey } from '../../stack/local-files.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { sequenceMessage } from '../../core/pipeline/index.js';
import { ledgerMessage } from '../pipeline/ledger-queue-fixture.js';
import { DynamoDbRequestArchive } from '../../adapters/dynamodb-request-archive.js';
import { startE2e, type E2eWorld } from './harness.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

let w: E2eWorld;
const dir = mkdtempSync(join(tmpdir(), 'docket-handler-'));
const saved = { ...process.env };

beforeAll(async () => {
  w = await startE2e({ stage: 'handler' });
  await w.poller.stop(); // the test invokes the handlers itself
  await w.deliverPoller?.stop();
  const keyFile = join(dir, 'key.json');
  writeSigningKey(keyFile, w.keys);
  const checkpointKeyFile = join(dir, 'checkpoint-key.json');
  writeSigningKey(checkpointKeyFile, w.checkpointKeys);
  const policyFile = join(dir, 'trust-policy.json');
  // The handler signs with build 'd'×64 here; the checkpoint writer judges entries under a policy that allows it.
  writeFileSync(policyFile, w.policyText.replace('e'.repeat(64), 'd'.repeat(64)));
  Object.assign(process.env, w.env, w.deliverEnv, {
    DOCKET_SIGNING_KEY_FILE: keyFile,
    DOCKET_CHECKPOINT_KEY_FILE: checkpointKeyFile,
    DOCKET_TRUST_POLICY_FILE: policyFile,
    DOCKET_BUILD_DIGEST: 'd'.repeat(64),
    // The checkpoint function's archive cross-check (ADR 0487): with REQUESTS_TABLE and LEDGER_QUEUE_URL from the
    // evaluate function's environment, the whole path it reads.
    INTAKE_QUEUE_URL: w.queueUrl('intake'),
    INTAKE_DLQ_URL: w.queueUrl('intake-dlq'),
    LEDGER_DLQ_URL: w.queueUrl('ledger-dlq.fifo'),
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  });
}, 120_000);
afterAll(async () => {
  process.env = saved;
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const record = (messageId: string, body: string) => ({
  messageId,
  receiptHandle: messageId,
  body,
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: '0',
    SenderId: 'x',
    ApproximateFirstReceiveTimestamp: '0',
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:docket-handler-intake',
  awsRegion: 'us-east-1',
});

/** A record of the FIFO ledger queue under the group the sequence function gives its body (a log, ADR 0497). */
const ledgerRecord = (messageId: string, body: string) => {
  const r = record(messageId, body);
  const groupId = sequenceMessage(body, JSON.parse(w.env.LOG_IDS!) as string[]).groupId;
  return { ...r, attributes: { ...r.attributes, MessageGroupId: groupId } };
};

it('cold-starts from the environment, records the good requests and the refusal, and sends the unidentifiable one to the rejects queue under its intake message id', async () => {
  const { digest } = await w.registry.putPack(new Uint8Array(readFileSync('examples/vendor-onboarding-target.json')));
  const { handler } = await import('../../functions/evaluate.js');
  const good = (id: string) =>
    `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"sha256:${digest}","facts":{"vendor":{"riskScore":"12.5","sanctioned":false}},"evidence":{"tax-certificate":"present"}}`;
  const event = {
    Records: [
      ledgerRecord(
        'm1',
        // The ledger message the sequence function sends for an intake batch of three.
        ledgerMessage([
          { intakeMessageId: 'i1', body: good('h-1') },
          { intakeMessageId: 'i2', body: '{"requestId":' },
          {
            intakeMessageId: 'i3',
            body: `{"format":"${REQUEST_FORMAT}","requestId":"h-3","pack":"sha256:${'0'.repeat(64)}","facts":{}}`,
          },
        ]),
      ),
      // Not a ledger message (a planted body, or one sent before the format): one request's bytes.
      ledgerRecord('m2', good('h-2')),
    ],
  } as unknown as SQSEvent;
  const res = await handler(event);
  expect(res).toEqual({ batchItemFailures: [] });
  // The positions are the delivery stage's (docs/adr/0404-delivery-stage.md): none yet.
  expect(await findPosition(w.store, 'h-1')).toBeNull();
  const jobs = await w.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: w.queueUrl('delivery'), MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
  );
  expect(jobs.Messages?.length).toBeGreaterThanOrEqual(1);
  const deliver = await import('../../functions/deliver.js');
  const delivered = await deliver.handler({
    Records: (jobs.Messages ?? []).map((m) => record(m.MessageId!, m.Body!)),
  } as unknown as SQSEvent);
  expect(delivered).toEqual({ batchItemFailures: [] });
  const p1 = await findPosition(w.store, 'h-1');
  const p2 = await findPosition(w.store, 'h-2');
  const p3 = await findPosition(w.store, 'h-3');
  expect([p1 !== null, p2 !== null, p3 !== null]).toEqual([true, true, true]);
  for await (const e of w.store.readEntries(p1!.logId, p1!.seq, p1!.seq)) {
    expect(JSON.parse(e.body).evaluator).toEqual({
      name: 'docket-evaluator',
      version: '0.1.0',
      buildDigest: 'd'.repeat(64),
    });
  }
  // The unidentifiable request is on the rejects queue with its reason (ADR 0492), never on a DLQ.
  const dlq = await w.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: w.queueUrl('rejects'),
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 1,
      MessageAttributeNames: ['All'],
    }),
  );
  expect(
    (dlq.Messages ?? []).map((m) => [
      m.Body,
      m.MessageAttributes?.DocketReason?.StringValue,
      m.MessageAttributes?.OriginalMessageId?.StringValue,
    ]),
  ).toEqual([['{"requestId":', 'request-not-json', 'i2']]);
});

it('writes a signed checkpoint of every log on invocation and exports them to the configured file', async () => {
  const exportFile = join(dir, 'checkpoints.json');
  process.env.DOCKET_CHECKPOINT_EXPORT_FILE = exportFile;
  const { handler } = await import('../../functions/checkpoint.js');
  const out = await handler();
  const logIds = JSON.parse(w.env.LOG_IDS!) as string[];
  expect(out.checkpoints.map((c) => c.logId)).toEqual(logIds);
  expect(out.checkpoints.map((c) => c.status)).toEqual(logIds.map(() => 'written'));
  const total = out.checkpoints.reduce((n, c) => n + c.treeSize, 0);
  expect(total).toBe(3); // h-1, h-2 and h-3 of the test above
  const exported = JSON.parse(readFileSync(exportFile, 'utf8')) as { format: string; checkpoints: { body: string }[] };
  expect(exported.format).toBe('docket.checkpoint-export/1');
  expect(exported.checkpoints.map((c) => JSON.parse(c.body).origin)).toEqual(
    logIds.map(() => ({ environment: 'handler', table: 'docket-handler-ledger' })),
  );
  // Signed by the checkpoint key, never the entry key, in the format whose writer verifies before signing.
  expect(new Set(exported.checkpoints.map((c) => JSON.parse(c.body).keyId))).toEqual(new Set([w.checkpointKeys.keyId]));
  expect(new Set(exported.checkpoints.map((c) => JSON.parse(c.body).format))).toEqual(new Set(['docket.checkpoint/2']));
});

it('publishes each checkpoint as a C2SP checkpoint note beside it, in the table and the configured notes file', async () => {
  const notesFile = join(dir, 'checkpoint-notes.json');
  process.env.DOCKET_CHECKPOINT_NOTES_FILE = notesFile;
  const { handler } = await import('../../functions/checkpoint.js');
  await handler();
  const logIds = JSON.parse(w.env.LOG_IDS!) as string[];
  const exported = JSON.parse(readFileSync(notesFile, 'utf8')) as {
    format: string;
    notes: { logId: string; note: string }[];
  };
  expect(exported.format).toBe('docket.checkpoint-notes/1');
  expect([...new Set(exported.notes.map((n) => n.logId))]).toEqual(logIds);
  for (const n of exported.notes)
    expect(n.note).toMatch(new RegExp(`^docket/handler/docket-handler-ledger/${n.logId}\\n\\d+\\n`));
  const stored = [];
  for await (const n of w.store.readNotes(logIds[0]!)) stored.push(n);
  expect(stored.length).toBeGreaterThan(0);
});

it('signs no log while an archived request has no entry: every log is refused with the finding (ADR 0457, ADR 0487)', async () => {
  // Retained long ago (past any redelivery window) and never recorded: what a deleted entry leaves behind.
  const archive = new DynamoDbRequestArchive({ client: w.dynamodb, tableName: w.env.REQUESTS_TABLE!, now: () => 0 });
  const lost = `{"format":"${REQUEST_FORMAT}","requestId":"h-lost","pack":"sha256:${'0'.repeat(64)}","facts":{}}`;
  await archive.put(new TextEncoder().encode(lost));
  const { handler } = await import('../../functions/checkpoint.js');
  const out = await handler();
  const logIds = JSON.parse(w.env.LOG_IDS!) as string[];
  expect(out.checkpoints.map((c) => [c.logId, c.status])).toEqual(logIds.map((l) => [l, 'refused']));
  expect(out.checkpoints[0]!.findings).toEqual([
    expect.objectContaining({ code: 'request-without-entry', requestId: 'h-lost' }),
  ]);
});
