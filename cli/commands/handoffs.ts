/**
 * `docket handoffs --route <key>`: a routed consumer's view. Receives handoff messages from the route's queue,
 * prints them (human, or one JSON line each with --json), and acknowledges (deletes) each one after printing it.
 * `--route unrouted` reads destinationless and unmapped handoffs; `--peek` prints without acknowledging (the
 * messages reappear after the visibility timeout). Consumers dedupe on handoffId.
 */
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { EXIT, parseCommandArgs, parsePositiveInteger } from '../args.js';
import type { CliIo } from '../io.js';
import { readHandoffMessage, type HandoffMessage } from '../../core/pipeline/handoff-message.js';
import { resolveSettings, routeQueueName, SETTING_FLAGS, SETTINGS_HELP } from '../../stack/settings.js';
import { explainStackError, openStack } from '../../stack/clients.js';

const USAGE = `docket handoffs --route <queue-key|unrouted> [--max <n>] [--wait <seconds>] [--peek] [--json]\n${SETTINGS_HELP}`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      ...SETTING_FLAGS,
      route: { type: 'string' },
      max: { type: 'string' },
      wait: { type: 'string' },
      peek: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    { min: 0, max: 0 },
  );
  if (values.help) {
    io.stdout(`usage: ${USAGE}\n`);
    return EXIT.OK;
  }
  if (typeof values.route !== 'string') {
    io.stderr(`docket handoffs: --route is required\nusage: ${USAGE}\n`);
    return EXIT.USAGE;
  }
  const max = typeof values.max === 'string' ? parsePositiveInteger(values.max, '--max') : 100;
  const wait = typeof values.wait === 'string' ? Math.min(20, parsePositiveInteger(values.wait, '--wait')) : 1;
  const settings = resolveSettings(values as never, process.env);
  const stack = openStack(settings);
  let received = 0;
  try {
    const url = await stack.queueUrl(routeQueueName(settings, values.route));
    while (received < max) {
      const out = await stack.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: url,
          MaxNumberOfMessages: Math.min(10, max - received),
          WaitTimeSeconds: wait,
          MessageAttributeNames: ['All'],
          VisibilityTimeout: values.peek ? 5 : 30,
        }),
      );
      const messages = out.Messages ?? [];
      if (messages.length === 0) break;
      for (const m of messages) {
        received += 1;
        const parsed = readHandoffMessage(new TextEncoder().encode(m.Body ?? ''));
        if (values.json)
          io.stdout(`${parsed.ok ? m.Body : JSON.stringify({ unreadable: parsed.error, body: m.Body })}\n`);
        else
          io.stdout(
            parsed.ok
              ? describeHandoff(parsed.value)
              : `unreadable message ${m.MessageId}: ${parsed.error.code}: ${parsed.error.message}\n`,
          );
        // Acknowledge only after the message was printed: a crash before this line redelivers it.
        if (!values.peek)
          await stack.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
      }
    }
    if (!values.json)
      io.stderr(
        `${received} handoff${received === 1 ? '' : 's'} ${values.peek ? 'peeked' : 'received and acknowledged'} from ${routeQueueName(settings, values.route)}\n`,
      );
    return EXIT.OK;
  } catch (e) {
    io.stderr(`docket handoffs: ${explainStackError(e, settings)}\n`);
    return EXIT.FAILED;
  } finally {
    stack.close();
  }
}

export function describeHandoff(m: HandoffMessage): string {
  const d = m.disposition;
  const to =
    m.shape === 'no-destination'
      ? 'no destination (direct escalation, no escalation object)'
      : `${m.target!.kind}:${m.target!.name}${m.destination === 'unmapped-target' ? ' (no queue configured: unrouted)' : ''}`;
  return [
    `handoff ${m.handoffId}`,
    `  request ${m.requestId}  →  ${to}  [${m.shape} #${m.routeIndex}]`,
    `  ${d.kind}${d.kind === 'outcome' ? ` ${d.outcomeId}` : ''}  reasons: ${d.reasons.join(', ') || '-'}  triggered by: ${d.handoff.triggeredBy?.join(', ') ?? '-'}`,
    `  ledger ${m.ledger.logId}#${m.ledger.seq} ${m.ledger.entryHash}`,
    '',
  ].join('\n');
}
