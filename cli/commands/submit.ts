/**
 * `docket submit` (USAGE below; docs/pipeline.md): requests onto the intake queue, their ids printed; --wait reads
 * results from a short-lived queue subscribed to the results topic
 * (docs/adr/0173-submit-wait-listens-on-a-filtered-queue.md).
 * Documents are spliced into the request verbatim (core/pipeline/request-builder.ts), never re-serialized.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { createSnsClient } from '../../adapters/aws-clients.js';
import { openFilteredSubscription, type FilteredSubscription } from '../../adapters/sns.js';
import { requestIdFilterPolicies, sentRequestOf } from '../../core/pipeline/index.js';
import { readTrustPolicy, type TrustPolicy } from '../../core/ledger/index.js';
import { localPaths } from '../../stack/local-files.js';
import { waitForResults } from '../wait-results.js';
import { EXIT, flagTable, parseCommandArgs, parsePositiveInteger, reportUsage, fail } from '../args.js';
import { readInput, type CliIo } from '../io.js';
import { buildGraphRequest, buildRequest, idPrefixFor, requestFromLine } from '../../core/pipeline/index.js';
import { MAX_REQUEST_BYTES } from '../../core/admission/index.js';
import { resolveSettings, SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { explainStackError, openStack } from '../../stack/clients.js';
import { resultsTopicArn, snsOptions } from '../results-topic.js';

const USAGE = `docket submit --pack <sha256:…|id@version> --facts <file> [--evidence <file>] [--id <request-id>] [--budget <units>]
       docket submit --file <requests.jsonl> [--pack <ref>] [--quiet]
       docket submit --graph <sha256:…|id@version> [--inputs <file>] [--id <request-id>] [--budget <units>]
  --graph sends a graph request (docket.graph-request/1) naming a published graph (docket publish --config --graph);
  it is accepted only by a deployment that enables judgment graphs (docs/graphs.md "Through the pipeline").
  A --file line {"graph", "inputs"?, "requestId"?} is a graph request, mixed freely with evaluation lines.
  any form with --wait [--timeout <seconds>] [--json] [--results-topic <arn>] [--policy <trust-policy.json>]:
  wait for each request's result (one line per request as it arrives; exit 1 listing those without a result in
  time; default timeout 60 s). A result is printed only once its signed entry verifies under the trust policy
  (default .docket/local/trust-policy.json) and records the request as sent; a notification that does not is
  reported on stderr and the wait goes on. --json lines carry the entry's bytes: keep them for verify-receipt.
${SETTINGS_HELP}`;

const FLAGS = {
  ...SETTING_FLAGS,
  ...flagTable(
    ['pack', 'graph', 'inputs', 'facts', 'evidence', 'id', 'budget', 'file', 'timeout', 'results-topic', 'policy'],
    ['quiet', 'wait', 'json'],
  ),
};

const DEFAULT_WAIT_SECONDS = 60;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, FLAGS, USAGE);
  const v = values as Record<string, string | boolean | undefined>;
  const requests: { requestId: string; text: string }[] = [];
  let failures = 0;
  if (v.inputs !== undefined && v.graph === undefined) return usage(io, '--inputs goes with --graph');
  let built: ReturnType<typeof buildRequest> | undefined;
  if (typeof v.graph === 'string') {
    if (v.file !== undefined || v.pack !== undefined || v.facts !== undefined || v.evidence !== undefined)
      return usage(io, '--graph cannot be combined with --pack, --facts, --evidence or --file');
    built = buildGraphRequest({
      requestId: typeof v.id === 'string' ? v.id : `req-${randomUUID()}`,
      graph: v.graph,
      ...(typeof v.inputs === 'string' ? { inputs: await readInput(v.inputs, io) } : {}),
      ...(typeof v.budget === 'string' ? { workBudget: parsePositiveInteger(v.budget, '--budget') } : {}),
    });
  } else if (typeof v.file === 'string') {
    if (v.facts !== undefined || v.evidence !== undefined || v.id !== undefined)
      return usage(io, '--file cannot be combined with --facts, --evidence or --id');
    const bytes = await readInput(v.file, io);
    const prefix = idPrefixFor(v.file, bytes);
    let start = 0;
    let lineNo = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i < bytes.length && bytes[i] !== 0x0a) continue;
      lineNo += 1;
      const line = bytes.subarray(start, i > start && bytes[i - 1] === 0x0d ? i - 1 : i);
      start = i + 1;
      if (line.length === 0 || line.every((b) => b === 0x20 || b === 0x09)) continue;
      const r = requestFromLine(line, lineNo, {
        ...(typeof v.pack === 'string' ? { pack: v.pack } : {}),
        idPrefix: prefix,
      });
      if (!r.ok) {
        failures += 1;
        io.stderr(`docket submit: ${v.file}:${lineNo}: ${r.error} (not submitted)\n`);
      } else requests.push(r.value);
    }
  } else {
    if (typeof v.pack !== 'string' || typeof v.facts !== 'string')
      return usage(io, 'give --pack and --facts, --file, or --graph');
    built = buildRequest({
      requestId: typeof v.id === 'string' ? v.id : `req-${randomUUID()}`,
      pack: v.pack,
      facts: await readInput(v.facts, io),
      ...(typeof v.evidence === 'string' ? { evidence: await readInput(v.evidence, io) } : {}),
      ...(typeof v.budget === 'string' ? { workBudget: parsePositiveInteger(v.budget, '--budget') } : {}),
    });
  }
  if (built !== undefined) {
    if (!built.ok) return fail(io, 'submit', built.error, EXIT.FAILED);
    requests.push({ requestId: (JSON.parse(built.value) as { requestId: string }).requestId, text: built.value });
  }
  for (const r of requests) {
    const size = Buffer.byteLength(r.text);
    if (size > MAX_REQUEST_BYTES)
      io.stderr(
        `docket submit: warning: ${r.requestId} is ${size} bytes, over the ${MAX_REQUEST_BYTES}-byte limit; it will be recorded as request-too-large\n`,
      );
  }
  if (
    !v.wait &&
    (v.timeout !== undefined || v.json !== undefined || v['results-topic'] !== undefined || v.policy !== undefined)
  )
    return usage(io, '--timeout, --json, --results-topic and --policy go with --wait');
  let policy: TrustPolicy | undefined;
  if (v.wait) {
    // Read before anything is sent: without the policy no result could be proven (ADR 0290).
    const policyPath = typeof v.policy === 'string' ? v.policy : localPaths().trustPolicy;
    const read = readTrustPolicy(await readInput(policyPath, io));
    if (!read.ok) return fail(io, 'submit', `${policyPath}: ${read.error.detail}`, EXIT.FAILED);
    policy = read.value;
  }
  const waitSeconds =
    typeof v.timeout === 'string' ? parsePositiveInteger(v.timeout, '--timeout') : DEFAULT_WAIT_SECONDS;
  const settings = resolveSettings(v as never, process.env);
  const stack = openStack(settings);
  const progress = typeof v.file === 'string' && !v.quiet ? progressBar(io, requests.length) : undefined;
  const sent: string[] = [];
  let subscription: FilteredSubscription | undefined;
  const sns = v.wait ? createSnsClient(snsOptions(settings), process.env) : undefined;
  try {
    const url = await stack.queueUrl(settings.intakeQueue);
    if (sns !== undefined) {
      // Subscribed before the first send, so no result can be published before the queue listens for it.
      subscription = await openFilteredSubscription(sns, stack.sqs, {
        topicArn: resultsTopicArn(v['results-topic'] as string | undefined, url, settings),
        queueName: `${settings.queuePrefix}-wait-${randomBytes(8).toString('hex')}`,
        filterPolicies: requestIdFilterPolicies(requests.map((r) => r.requestId)),
      });
    }
    let done = 0;
    for (let i = 0; i < requests.length; i += 10) {
      const chunk = requests.slice(i, i + 10);
      const out = await stack.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: chunk.map((r, j) => ({ Id: String(j), MessageBody: r.text })),
        }),
      );
      const failed = new Set((out.Failed ?? []).map((f) => Number(f.Id)));
      chunk.forEach((r, j) => {
        if (failed.has(j)) {
          failures += 1;
          io.stderr(
            `docket submit: ${r.requestId}: not sent (${out.Failed?.find((f) => Number(f.Id) === j)?.Message ?? 'error'})\n`,
          );
        } else {
          sent.push(r.requestId);
          if (!v.wait) io.stdout(`${r.requestId}\n`);
        }
      });
      done += chunk.length;
      progress?.(done);
    }
    if (subscription !== undefined && policy !== undefined) {
      const texts = new Map(requests.map((r) => [r.requestId, r.text]));
      const { missing, interrupted } = await waitForResults({
        sqs: stack.sqs,
        queueUrl: subscription.queueUrl,
        sent: new Map(sent.map((id) => [id, sentRequestOf(id, new TextEncoder().encode(texts.get(id)!))])),
        policy,
        store: stack.store,
        deadline: Date.now() + waitSeconds * 1000,
        json: v.json === true,
        io,
      });
      if (missing.length > 0) {
        failures += missing.length;
        io.stderr(
          `docket submit: ${interrupted ? 'interrupted before the result of' : `no result within ${waitSeconds} s for`} ${missing.length} request(s):\n${missing.map((id) => `  ${id}\n`).join('')}`,
        );
      }
    }
  } catch (e) {
    return fail(io, 'submit', explainStackError(e, settings), EXIT.FAILED);
  } finally {
    // The queue and its subscriptions are removed on every way out: results, timeout, error, Ctrl-C.
    await subscription?.close().catch((e: unknown) => {
      io.stderr(`docket submit: could not remove the wait queue: ${explainStackError(e, settings)}\n`);
    });
    sns?.destroy();
    stack.close();
  }
  return failures > 0 ? EXIT.FAILED : EXIT.OK;
}

const usage = (io: CliIo, message: string): number => reportUsage(io, 'submit', message, USAGE);

/** A one-line progress bar on stderr, redrawn in place. */
function progressBar(io: CliIo, total: number): (done: number) => void {
  return (done) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    io.stderr(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
  };
}
