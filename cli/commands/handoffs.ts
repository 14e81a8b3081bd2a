/**
 * `docket handoffs --route <key>` (USAGE below): a routed consumer's view. Each message is verified offline against
 * the trust policy (core/pipeline/handoff-verdict.ts; docs/adr/0141-handoff-verification-in-consumers.md) before it is
 * printed and acknowledged; a refused one goes to the route's DLQ with its `DocketReason`
 * (adapters/handoff-dead-letter.ts). A route resolving to another queue key is `wrong-queue` (ADR 0300); each id
 * prints once, across runs too (consumers dedupe on handoffId, ADR 0074; `--seen`, ADR 0460), so a replayed delivery
 * job's re-sent handoffs are not shown as new. `--peek` acknowledges and moves nothing (messages reappear).
 */
import { readFileSync } from 'node:fs';
import type { Message } from '@aws-sdk/client-sqs';
import { DeleteMessageCommand } from '@aws-sdk/client-sqs';
import { receiveMessages } from '../../adapters/sqs.js';
import { moveHandoffToDeadLetter } from '../../adapters/handoff-dead-letter.js';
import { EXIT, flagTable, parseCommandArgs, parsePositiveInteger, reportUsage, UsageError, fail } from '../args.js';
import type { CliIo } from '../io.js';
import type { HandoffTarget } from '../../core/evaluate/index.js';
import { readTrustPolicy, type TrustPolicy } from '../../core/ledger/index.js';
import { readHandoffMessage, type HandoffMessage } from '../../core/pipeline/index.js';
import {
  HandoffRepeats,
  UNROUTED_QUEUE_KEY,
  verifyHandoff,
  type HandoffVerdict,
  type HandoffVerifyOptions,
} from '../../core/pipeline/index.js';
import { DocketConfigError, resolveConfig, routeTargetKey, type RouteConfig } from '../../infra/config.js';
import { resolveSettings, routeQueueName, SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { localPaths } from '../../stack/local-files.js';
import { onStack } from '../on-stack.js';
import { terminalText } from '../terminal-text.js';
import { HandoffsSeenFileError, loadHandoffsSeen, saveHandoffsSeen } from '../handoffs-seen-file.js';

const USAGE = `docket handoffs --route <queue-key|unrouted> [--policy <trust-policy.json>] [--routes <routes.json>] [--expect-target <kind:name>]… [--seen <file>] [--no-verify] [--max <n>] [--wait <seconds>] [--peek] [--json]
  Verifies every message against the trust policy (default --policy .docket/local/trust-policy.json) before printing
  or acknowledging it; a message that fails goes to the route's DLQ with its reason (DocketReason). --verify is the
  default; --no-verify prints unchecked messages. A genuine handoff whose route resolves to another queue key is
  refused as wrong-queue: the route configuration is the stage's shipped one (infra/config.ts), or --routes, a JSON
  array of {kind, name, queue} (the deployment's "routes"). --expect-target names a target this queue serves
  (repeatable) and narrows further. Each handoff id is printed once; its repeats are acknowledged, in later runs too:
  the ids printed are kept per queue in --seen (default .docket/local/handoffs-seen.json).
${SETTINGS_HELP}`;

type Checked = HandoffVerdict | { readonly ok: false; readonly reason: string; readonly detail: string };

const TARGET_KINDS = ['human-role', 'queue', 'system'];

function parseTarget(text: string): HandoffTarget {
  const at = text.indexOf(':');
  const kind = text.slice(0, at);
  if (at < 1 || !TARGET_KINDS.includes(kind) || at === text.length - 1)
    throw new UsageError(`--expect-target ${JSON.stringify(text)} is not <human-role|queue|system>:<name>`);
  return { kind: kind as HandoffTarget['kind'], name: text.slice(at + 1) };
}

function loadPolicy(path: string): TrustPolicy | string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    return `cannot read the trust policy ${path}: ${(e as Error).message} (name one with --policy, or opt out with --no-verify)`;
  }
  const p = readTrustPolicy(bytes);
  return p.ok ? p.value : `${path}: ${p.error.code}: ${p.error.detail}`;
}

/** The route configuration: `--routes <file>` (an array of {kind, name, queue}, or an object with `routes`), else the stage's. */
function loadRoutes(path: string | undefined, stage: string): readonly RouteConfig[] | string {
  if (path === undefined) return resolveConfig({ stage }).routes;
  let routes: unknown;
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    routes = Array.isArray(parsed) ? parsed : (parsed as { routes?: unknown } | null)?.routes;
  } catch (e) {
    return `cannot read the route configuration ${path}: ${(e as Error).message}`;
  }
  if (!Array.isArray(routes)) return `${path}: the route configuration is an array of {kind, name, queue}`;
  try {
    return resolveConfig({ stage, routes: routes as RouteConfig[] }).routes;
  } catch (e) {
    return `${path}: ${e instanceof DocketConfigError ? e.problems.join('; ') : (e as Error).message}`;
  }
}

/** The queue key a --route value names (a key, or the queue's full name). */
function queueKeyOf(route: string, prefix: string): string {
  return route.startsWith(`${prefix}-route-`) ? route.slice(`${prefix}-route-`.length) : route;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      ...SETTING_FLAGS,
      ...flagTable(
        ['route', 'policy', 'routes', 'seen', 'max', 'wait'],
        ['verify', 'no-verify', 'peek', 'json'],
        ['expect-target'],
      ),
    },
    USAGE,
  );
  /** An input that cannot be used (the trust policy, the routes, the memory of ids printed): exit 66. */
  const noInput = (message: string): number => fail(io, 'handoffs', message, EXIT.NO_INPUT);
  if (typeof values.route !== 'string') return reportUsage(io, 'handoffs', '--route is required', USAGE);
  if (values.verify === true && values['no-verify'] === true)
    return reportUsage(io, 'handoffs', '--verify and --no-verify contradict each other', USAGE);
  const verify = values['no-verify'] !== true;
  const expected = Array.isArray(values['expect-target']) ? values['expect-target'].map(parseTarget) : undefined;
  const max = typeof values.max === 'string' ? parsePositiveInteger(values.max, '--max') : 100;
  const wait = typeof values.wait === 'string' ? Math.min(20, parsePositiveInteger(values.wait, '--wait')) : 1;
  let policy: TrustPolicy | undefined;
  if (verify) {
    const p = loadPolicy(typeof values.policy === 'string' ? values.policy : localPaths().trustPolicy);
    if (typeof p === 'string') return noInput(p);
    policy = p;
  } else
    io.stderr(
      'docket handoffs: --no-verify: messages are printed UNVERIFIED; anyone who can send to the queue could have written them\n',
    );
  const settings = resolveSettings(values as never, process.env);
  const queueKey = queueKeyOf(values.route, settings.queuePrefix);
  let verifyOptions: HandoffVerifyOptions = {};
  if (verify) {
    const routes = loadRoutes(typeof values.routes === 'string' ? values.routes : undefined, settings.stage);
    if (typeof routes === 'string') return noInput(routes);
    // Refuse before touching the queue: with an unknown key every genuine handoff would be moved to the DLQ.
    if (queueKey !== UNROUTED_QUEUE_KEY && !routes.some((r) => r.queue === queueKey))
      return reportUsage(
        io,
        'handoffs',
        `--route ${values.route} is no queue key of the route configuration (${[...new Set(routes.map((r) => r.queue))].join(', ')}, ${UNROUTED_QUEUE_KEY}); name the deployment's routes with --routes`,
        USAGE,
      );
    verifyOptions = {
      routeQueue: { key: queueKey, routeQueues: Object.fromEntries(routes.map((r) => [routeTargetKey(r), r.queue])) },
      ...(expected ? { expectedTargets: expected, acceptNoDestination: queueKey === UNROUTED_QUEUE_KEY } : {}),
    };
  }

  const queueName = routeQueueName(settings, values.route);
  const seenPath = typeof values.seen === 'string' ? values.seen : localPaths().handoffsSeen;
  let repeats: HandoffRepeats;
  try {
    // Unverified messages are never remembered (a forger could suppress a genuine id), so --no-verify reads no memory.
    repeats = new HandoffRepeats(verify ? (loadHandoffsSeen(seenPath)[queueName] ?? []) : []);
  } catch (e) {
    if (!(e instanceof HandoffsSeenFileError)) throw e;
    return noInput(`${e.message} (name another file with --seen, or move it aside)`);
  }
  let received = 0;
  let rejected = 0;
  let repeated = 0;
  return onStack(io, 'handoffs', values, async (stack) => {
    const url = await stack.queueUrl(queueName);
    let dlqUrl: string | undefined;
    const check = (m: Message): Checked => {
      const bytes = new TextEncoder().encode(m.Body ?? '');
      if (policy !== undefined) return verifyHandoff(bytes, policy, verifyOptions);
      const r = readHandoffMessage(bytes);
      return r.ok ? { ok: true, handoff: r.value } : { ok: false, reason: r.error.code, detail: r.error.message };
    };
    while (received < max) {
      const messages = await receiveMessages(stack.sqs, url, {
        maxMessages: Math.min(10, max - received),
        waitTimeSeconds: wait,
        visibilityTimeout: values.peek ? 5 : 30,
      });
      if (messages.length === 0) break;
      const acknowledge: Message[] = [];
      let printed = 0;
      for (const m of messages) {
        received += 1;
        const v = check(m);
        if (v.ok && verify && !repeats.first(v.handoff.handoffId)) {
          // A redelivery of a handoff this run already printed (ADR 0074): acknowledged, not printed again.
          repeated += 1;
          acknowledge.push(m);
          continue;
        }
        if (v.ok) {
          io.stdout(
            values.json ? `${jsonLine(v.handoff, verify, m.Body ?? '')}\n` : describeHandoff(v.handoff, verify),
          );
          printed += 1;
          acknowledge.push(m);
          continue;
        }
        rejected += 1;
        if (!verify) {
          // Without verification nothing is judged: an unreadable message is shown and acknowledged as before.
          io.stdout(
            values.json
              ? `${JSON.stringify({ unreadable: { code: v.reason, message: v.detail }, body: m.Body })}\n`
              : `${terminalText(`unreadable message ${m.MessageId}: ${v.reason}: ${v.detail}`)}\n`,
          );
          acknowledge.push(m);
          continue;
        }
        let where = 'left on the queue (--peek)';
        if (!values.peek) {
          dlqUrl ??= await stack.queueUrl(`${queueName}-dlq`);
          const moved = await moveHandoffToDeadLetter(stack.sqs, { queueUrl: url, dlqUrl }, m, v);
          where = moved.moved
            ? `moved to ${queueName}-dlq`
            : `too large to carry its reason: left for the queue's redrive to ${queueName}-dlq`;
        }
        // The detail quotes the message (a target, a route): anyone who can send to the queue wrote it.
        io.stderr(
          `docket handoffs: ${terminalText(`refused message ${m.MessageId}: ${v.reason}: ${v.detail}; ${where}`)}\n`,
        );
      }
      if (values.peek) continue;
      // Remembered, then acknowledged, only after printing: a crash before the file is written redelivers the batch
      // (shown again: at least once); a crash after it leaves repeats that the next run acknowledges unprinted.
      if (verify && printed > 0) saveHandoffsSeen(seenPath, queueName, repeats.remembered());
      for (const m of acknowledge)
        await stack.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    }
    if (!values.json)
      io.stderr(
        `${received - rejected - repeated} handoff${received - rejected - repeated === 1 ? '' : 's'} ${verify ? 'verified and ' : ''}${values.peek ? 'peeked' : 'received and acknowledged'} from ${queueName}` +
          (repeated > 0
            ? `; ${repeated} repeat${repeated === 1 ? '' : 's'} ${values.peek ? 'skipped' : 'acknowledged'}`
            : '') +
          (verify ? `; ${rejected} refused\n` : '\n'),
      );
    return verify && rejected > 0 ? EXIT.FAILED : EXIT.OK;
  });
}

/** One JSON line: what was read from the signed entry, whether it was verified, and the exact message bytes. */
function jsonLine(m: HandoffMessage, verified: boolean, body: string): string {
  return JSON.stringify({
    verified,
    handoffId: m.handoffId,
    requestId: m.requestId,
    ledger: m.ledger,
    packDigest: m.packDigest,
    routeIndex: m.routeIndex,
    shape: m.shape,
    destination: m.destination,
    ...(m.target ? { target: m.target } : {}),
    // A graph run's handoff (ADR 0361): the originating leaf, beside its unchanged target.
    ...(m.instancePath !== undefined ? { instancePath: m.instancePath, node: m.node } : {}),
    disposition: m.disposition,
    ...(m.correlation ? { correlation: m.correlation } : {}),
    message: body,
  });
}

/** The human form of a handoff. Its strings (target, outcome, ids, graph node) are the message's: terminal text. */
export function describeHandoff(m: HandoffMessage, verified = true): string {
  const d = m.disposition;
  const to =
    m.shape === 'no-destination'
      ? 'no destination (direct escalation, no escalation object)'
      : `${m.target!.kind}:${m.target!.name}${m.destination === 'unmapped-target' ? ' (no queue configured: unrouted)' : ''}`;
  return [
    `handoff ${m.handoffId}${verified ? '  (signature verified)' : '  (UNVERIFIED)'}`,
    `  request ${m.requestId}  →  ${to}  [${m.shape} #${m.routeIndex}]`,
    ...(m.instancePath !== undefined ? [`  from graph node ${m.instancePath} (${m.node ?? ''})`] : []),
    `  ${d.kind}${d.kind === 'outcome' ? ` ${d.outcomeId}` : ''}  reasons: ${d.reasons.join(', ') || '-'}  triggered by: ${d.handoff.triggeredBy?.join(', ') ?? '-'}`,
    `  ledger ${m.ledger.logId}#${m.ledger.seq} ${m.ledger.entryHash}`,
    '',
  ]
    .map(terminalText)
    .join('\n');
}
