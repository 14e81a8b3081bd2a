/**
 * A requester's client (@docket/client; docs/pipeline.md "Result notifications", "Verifying a result";
 * docs/adr/0444-client-results-verified-as-submit-wait.md): submits requests to the intake queue, and yields only
 * results it proved — the checks of `docket submit --wait` (core/pipeline/result-proof.ts): the entry signed under
 * the pinned trust policy and recording exactly the bytes this client sent. A notification that proves nothing is
 * reported to `onRefused`, never yielded.
 *
 * `results()` subscribes a short-lived queue to the results topic, filtered on the awaited request ids (ADR 0173),
 * then reads the ledger once for results recorded before it listened, then receives until every result arrived or
 * the timeout passes; the queue and its subscriptions are removed on every way out.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { SQSClient } from '@aws-sdk/client-sqs';
// The modules themselves, not core/ledger's and core/pipeline's indexes: the indexes reach the whole pipeline
// (graphs, generated validators), which every client bundle would then carry — 1.4 MB instead of ~110 KB (ADR 0444).
import { parseStoredEntry } from '../core/ledger/entries/entry.js';
import { buildReceipt, locateEntry, type ReceiptBuildError } from '../core/ledger/receipts/receipt-build.js';
import { receiptText, type Receipt } from '../core/ledger/receipts/receipt.js';
import { verifyReceipt, type ReceiptVerdict } from '../core/ledger/receipts/receipt-verify.js';
import { readTrustPolicy, type TrustPolicy } from '../core/ledger/trust-policy/index.js';
import { buildGraphRequest, buildRequest } from '../core/pipeline/request-builder.js';
import { requestIdFilterPolicies } from '../core/pipeline/result-filter.js';
import { proveResult, type ProvenEntry, type ResultProof } from '../core/pipeline/result-proof.js';
import { sentRequestOf, verifyResultEntry, type SentRequest } from '../core/pipeline/result-verdict.js';
import { createDynamoDbClient, createSnsClient, createSqsClient, type AwsClientOptions } from './aws-clients.js';
import { sqs as sqsCommands } from './aws-sdk.js';
import { DynamoDbLedgerStore } from './dynamodb-ledger-store.js';
import { openFilteredSubscription } from './sns.js';
import { sendByPosition } from './sqs.js';

/** A JSON document: exact bytes of its text, or a value serialized with JSON.stringify. */
export type JsonDocument = Uint8Array | null | boolean | number | string | readonly unknown[] | object;

export interface EvaluationRequestInput {
  /** Default: `req-<uuid>`. */
  readonly requestId?: string;
  /** The pack: "sha256:<hex>" or "id@version". */
  readonly pack: string;
  readonly facts: JsonDocument;
  readonly evidence?: JsonDocument;
  readonly workBudget?: number;
  readonly correlation?: Readonly<Record<string, string>>;
}

export interface GraphRequestInput {
  readonly requestId?: string;
  /** A published graph: "sha256:<hex>" or "id@version". */
  readonly graph: string;
  readonly inputs?: JsonDocument;
  readonly workBudget?: number;
  readonly correlation?: Readonly<Record<string, string>>;
}

export interface DocketClientOptions extends AwsClientOptions {
  readonly intakeQueueUrl: string;
  readonly resultsTopicArn: string;
  /** The ledger table (`docket-<stage>-ledger`): results recorded before `results()` listened, and receipts. */
  readonly ledgerTable: string;
  /** The pinned trust policy, read or as its file's bytes. */
  readonly policy: TrustPolicy | Uint8Array;
  /** SDK clients to use instead of ones built from endpoint/region/credentials. */
  readonly sqs?: SQSClient;
  readonly sns?: SNSClient;
  readonly dynamodb?: DynamoDBClient;
  /**
   * Name prefix of the short-lived wait queues. Default: the results topic's name with `-results` replaced by
   * `-wait` (`docket-<stage>-wait`, infra/names.ts), the prefix the stack's ResultsWaiterPolicy allows.
   */
  readonly waitQueuePrefix?: string;
}

/** A request the client could not build or send. */
export class DocketClientError extends Error {
  constructor(
    readonly code: 'request-invalid' | 'request-not-sent' | 'not-submitted-here' | 'results-timeout',
    message: string,
    /** The request ids concerned (for results-timeout: those still without a result). */
    readonly requestIds: readonly string[] = [],
  ) {
    super(message);
    this.name = 'DocketClientError';
  }
}

/** A verified result: the request id, the proven signed entry and its exact text. */
export interface ClientResult {
  readonly requestId: string;
  readonly entry: ProvenEntry['entry'];
  readonly entryHash: string;
  /** The signed entry's exact text: keep it to audit later that it stayed in the log (`verifyResult`, receipts). */
  readonly body: string;
}

/** A notification that proved nothing, as `onRefused` is told of it. */
export type RefusedResult = Extract<ResultProof, { ok: false }>;

export interface ResultsOptions {
  /** Seconds to wait for every result (default 60). On timeout the iterator throws `results-timeout`. */
  readonly timeout?: number;
  readonly onRefused?: (refused: RefusedResult) => void;
  readonly signal?: AbortSignal;
}

export type ClientReceipt =
  | { readonly ok: true; readonly receipt: Receipt; readonly text: string; readonly verdict: ReceiptVerdict }
  | { readonly ok: false; readonly error: ReceiptBuildError };

export interface SubmitManyResult {
  readonly sent: readonly string[];
  readonly failed: readonly { readonly requestId: string; readonly error: string }[];
}

export interface DocketClient {
  submit(request: EvaluationRequestInput): Promise<{ requestId: string }>;
  submitGraph(request: GraphRequestInput): Promise<{ requestId: string }>;
  /** Sends in batches of ten; every request gets its id; a request SQS refused is listed, not thrown. */
  submitMany(requests: readonly (EvaluationRequestInput | GraphRequestInput)[]): Promise<SubmitManyResult>;
  results(requestIds: Iterable<string>, options?: ResultsOptions): AsyncIterable<ClientResult>;
  /** The request's receipt from the ledger, verified under the policy (and against the bytes, when sent here). */
  receipt(requestId: string): Promise<ClientReceipt>;
  /** Releases the SDK clients the client built itself. */
  close(): void;
}

const utf8 = new TextEncoder();
const bytesOf = (d: JsonDocument): Uint8Array => (d instanceof Uint8Array ? d : utf8.encode(JSON.stringify(d)));

/** The request text, or why it cannot be built (a typed error: nothing is sent). */
function requestText(r: EvaluationRequestInput | GraphRequestInput): { requestId: string; text: string } {
  const requestId = r.requestId ?? `req-${randomUUID()}`;
  const common = {
    requestId,
    ...(r.workBudget !== undefined ? { workBudget: r.workBudget } : {}),
    ...(r.correlation !== undefined ? { correlation: r.correlation } : {}),
  };
  const built =
    'graph' in r
      ? buildGraphRequest({
          ...common,
          graph: r.graph,
          ...(r.inputs !== undefined ? { inputs: bytesOf(r.inputs) } : {}),
        })
      : buildRequest({
          ...common,
          pack: r.pack,
          facts: bytesOf(r.facts),
          ...(r.evidence !== undefined ? { evidence: bytesOf(r.evidence) } : {}),
        });
  if (!built.ok) throw new DocketClientError('request-invalid', `${requestId}: ${built.error}`, [requestId]);
  return { requestId, text: built.value };
}

export function docketClient(o: DocketClientOptions): DocketClient {
  const policy = (() => {
    if (!(o.policy instanceof Uint8Array)) return o.policy;
    const read = readTrustPolicy(o.policy);
    if (!read.ok) throw new TypeError(`trust policy ${read.error.code}: ${read.error.detail}`);
    return read.value;
  })();
  const aws: AwsClientOptions = {
    ...(o.endpoint !== undefined ? { endpoint: o.endpoint } : {}),
    ...(o.region !== undefined ? { region: o.region } : {}),
    ...(o.credentials !== undefined ? { credentials: o.credentials } : {}),
    ...(o.maxAttempts !== undefined ? { maxAttempts: o.maxAttempts } : {}),
    ...(o.maxSockets !== undefined ? { maxSockets: o.maxSockets } : {}),
  };
  const own: { destroy(): void }[] = [];
  const made = <T extends { destroy(): void }>(c: T): T => (own.push(c), c);
  const sqs = o.sqs ?? made(createSqsClient(aws));
  const sns = o.sns ?? made(createSnsClient(aws));
  const store = new DynamoDbLedgerStore({
    client: o.dynamodb ?? made(createDynamoDbClient(aws)),
    tableName: o.ledgerTable,
  });
  const waitQueuePrefix =
    o.waitQueuePrefix ??
    `${o.resultsTopicArn
      .split(':')
      .at(-1)!
      .replace(/-results$/, '')}-wait`;
  /** What this client sent, by request id: the bytes every yielded result must record. */
  const sent = new Map<string, SentRequest>();

  async function send(texts: readonly { requestId: string; text: string }[]): Promise<SubmitManyResult> {
    const out = await sendByPosition(
      sqs,
      o.intakeQueueUrl,
      texts.map((t) => ({ body: t.text })),
    );
    const failed = out.failed.map((f) => ({ requestId: texts[f.index]!.requestId, error: f.reason }));
    const refused = new Set(failed.map((f) => f.requestId));
    const ok = texts.filter((t) => !refused.has(t.requestId));
    for (const t of ok) sent.set(t.requestId, sentRequestOf(t.requestId, utf8.encode(t.text)));
    return { sent: ok.map((t) => t.requestId), failed };
  }

  async function submitOne(r: EvaluationRequestInput | GraphRequestInput): Promise<{ requestId: string }> {
    const out = await send([requestText(r)]);
    if (out.failed.length > 0)
      throw new DocketClientError('request-not-sent', out.failed[0]!.error, [out.failed[0]!.requestId]);
    return { requestId: out.sent[0]! };
  }

  async function* results(ids: Iterable<string>, options: ResultsOptions = {}): AsyncGenerator<ClientResult> {
    const awaited = new Map<string, SentRequest>();
    for (const id of ids) {
      const s = sent.get(id);
      if (s === undefined)
        throw new DocketClientError('not-submitted-here', `${id} was not submitted by this client`, [id]);
      awaited.set(id, s);
    }
    const pending = new Set(awaited.keys());
    const deadline = Date.now() + (options.timeout ?? 60) * 1000;
    const yielded = (e: ProvenEntry): ClientResult => ({
      requestId: e.entry.requestId,
      entry: e.entry,
      entryHash: e.entryHash,
      body: e.body,
    });
    if (pending.size === 0) return;
    const subscription = await openFilteredSubscription(sns, sqs, {
      topicArn: o.resultsTopicArn,
      queueName: `${waitQueuePrefix}-${randomBytes(8).toString('hex')}`,
      filterPolicies: requestIdFilterPolicies([...pending]),
    });
    try {
      // Listening now: a result recorded before is in the ledger, and proven the same way as a notification.
      for (const id of [...pending]) {
        const at = await locateEntry(store, id);
        if (!at.ok) continue;
        const parsed = parseStoredEntry(at.value.body);
        if (!parsed.ok || !verifyResultEntry(parsed.value, awaited.get(id), policy).ok) continue;
        pending.delete(id);
        yield yielded({ ...parsed.value, body: at.value.body });
      }
      while (pending.size > 0 && !options.signal?.aborted) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        const r = await sqs.send(
          new sqsCommands.ReceiveMessageCommand({
            QueueUrl: subscription.queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: Math.max(1, Math.min(20, Math.floor(left / 1000))),
          }),
          options.signal ? { abortSignal: options.signal } : {},
        );
        const messages = r.Messages ?? [];
        for (const m of messages) {
          const proof = await proveResult(m.Body ?? '', awaited, policy, store);
          if (!proof.ok) options.onRefused?.(proof);
          else if (pending.delete(proof.entry.entry.requestId)) yield yielded(proof.entry);
        }
        if (messages.length > 0)
          await sqs.send(
            new sqsCommands.DeleteMessageBatchCommand({
              QueueUrl: subscription.queueUrl,
              Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
            }),
          );
      }
    } finally {
      await subscription.close();
    }
    if (pending.size > 0)
      throw new DocketClientError(
        'results-timeout',
        `no result within ${options.timeout ?? 60} s for ${pending.size} request(s)`,
        [...pending],
      );
  }

  return {
    submit: (r) => submitOne(r),
    submitGraph: (r) => submitOne(r),
    submitMany: (rs) => send(rs.map(requestText)),
    results,
    async receipt(requestId) {
      const built = await buildReceipt(store, requestId);
      if (!built.ok) return built;
      const request = sent.get(requestId);
      const verdict = verifyReceipt(built.value, policy, request ? { inputs: { request: request.bytes } } : {});
      return { ok: true, receipt: built.value, text: receiptText(built.value), verdict };
    },
    close() {
      for (const c of own) c.destroy();
    },
  };
}
