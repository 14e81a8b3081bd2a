// Type-checked under `strict` in a fresh project that installed the packed tarballs (test/packages/tarballs.stack.test.ts):
// every exported function of the library packages, used as their READMEs use them.
import {
  installLedgerCrypto,
  portableLedgerCrypto,
  readTrustPolicy,
  readWitnessPolicy,
  verifyExport,
  verifyHandoff,
  verifyReceipt,
  verifyResult,
  HANDOFF_REJECTIONS,
  RESULT_REJECTIONS,
  RECEIPT_FINDING_CODES,
  VERIFY_FINDING_CODES,
  type HandoffRejection,
  type HandoffVerdict,
  type ReceiptVerdict,
  type ResultVerdict,
  type TrustPolicy,
} from '@docket/verify';
import {
  dynamoDbSeenHandoffs,
  handoffConsumer,
  handoffRecordHandler,
  memorySeenHandoffs,
  HandoffRecordError,
  type RecordOutcome,
  type SqsBatchResponse,
  type SqsEvent,
} from '@docket/consumer';
import { docketClient, DocketClientError, type ClientResult, type DocketClient } from '@docket/client';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

const bytes = new TextEncoder().encode('{}');
const read = readTrustPolicy(bytes);
if (!read.ok) throw new Error(`${read.error.code}: ${read.error.detail}`);
const policy: TrustPolicy = read.value;

const handoff: HandoffVerdict = verifyHandoff(bytes, policy, { routeQueue: { key: 'oversight', routeQueues: {} } });
const reason: HandoffRejection | string = handoff.ok ? handoff.handoff.handoffId : handoff.reason;
const result: ResultVerdict = verifyResult(bytes, policy, { request: { requestId: 'r-1', bytes } });
const resultText: string = result.ok ? result.result.body : `${result.reason}: ${result.detail}`;
const receipt: ReceiptVerdict = verifyReceipt(bytes, policy, { inputs: { facts: bytes } });
const findings: number = receipt.findings.length + (receipt.unreadable ? 1 : 0);
const witnesses = readWitnessPolicy(bytes);
const previous = installLedgerCrypto(portableLedgerCrypto);
export async function audit(): Promise<boolean> {
  const v = await verifyExport({ ledger: bytes, policy: bytes, checkpoints: bytes });
  return v.ok ? v.value.ok : v.error.code === 'export-unreadable';
}
const codes: readonly string[] = [
  ...HANDOFF_REJECTIONS,
  ...RESULT_REJECTIONS,
  ...RECEIPT_FINDING_CODES,
  ...VERIFY_FINDING_CODES,
];

const handler: (event: SqsEvent) => Promise<SqsBatchResponse> = handoffConsumer({
  policy,
  routeQueue: { key: 'oversight', routeQueues: { 'human-role:Oversight': 'oversight' } },
  deadLetterQueueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/docket-prod-route-oversight-dlq',
  seen: dynamoDbSeenHandoffs({ client: new DynamoDBClient({}), tableName: 'seen' }),
  handle: async (h) => void h.disposition,
  onRefused: (r) => void r.reason,
});
const onRecord: (record: { messageId: string; body: string }) => Promise<RecordOutcome> = handoffRecordHandler({
  policy: bytes,
  routeQueue: { key: 'unrouted', routeQueues: {} },
  deadLetterQueueUrl: 'q',
  seen: memorySeenHandoffs({ leaseSeconds: 60 }),
  handle: () => undefined,
});
const failure: string = new HandoffRecordError('handle-failed', 'x').code;

const client: DocketClient = docketClient({
  region: 'us-east-1',
  intakeQueueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/docket-prod-intake',
  resultsTopicArn: 'arn:aws:sns:us-east-1:123456789012:docket-prod-results',
  ledgerTable: 'docket-prod-ledger',
  policy,
});
export async function requester(): Promise<ClientResult[]> {
  const { requestId } = await client.submit({ pack: 'vendor@2.1.0', facts: { vendor: { riskScore: '1' } } });
  const graph = await client.submitGraph({ graph: 'intake@1.0.0', inputs: bytes });
  const many = await client.submitMany([{ pack: 'vendor@2.1.0', facts: bytes }]);
  const out: ClientResult[] = [];
  try {
    for await (const r of client.results([requestId, graph.requestId, ...many.sent], { timeout: 5 })) out.push(r);
  } catch (e) {
    if (e instanceof DocketClientError) void e.requestIds;
  }
  const r = await client.receipt(requestId);
  if (r.ok) void r.verdict.ok;
  else void r.error.code;
  client.close();
  return out;
}
export const used = [reason, resultText, findings, witnesses, previous, codes, handler, onRecord, failure];
