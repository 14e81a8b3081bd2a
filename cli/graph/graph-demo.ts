/**
 * The graph part of the main job (`npm start -- --graphs`, `docket local start --graphs`): publishes the
 * vendor-onboarding project's closed set and graph (ADR 0340), puts one graph request on the intake queue, waits for
 * its ledger entry, and shows the entry (as `docket show` does), the handoffs it put on the route queues (each with
 * its target verbatim and the instance path it came from) and the console page that draws the run (ADR 0370).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { parseStoredEntry } from '../../core/ledger/index.js';
import { buildGraphRequest, readHandoffMessage } from '../../core/pipeline/index.js';
import { DEMO_GRAPH } from '../../stack/local-demo.js';
import type { StackClients } from '../../stack/clients.js';
import { consoleEntryUrl } from '../console/address.js';
import { describeEntry } from '../commands/show.js';
import type { CliIo } from '../io.js';
import { packageRoot } from '../console/server.js';
import { publishGraph } from './publish-graph.js';
import { terminalText } from '../terminal-text.js';

/** A file of this package (found from this module, so from dist/ and from the sources alike). */
const repoFile = (rel: string): string => join(packageRoot(), rel);

/** The published graph's alias, `id@version`, read from its document (what `docket publish` printed last). */
function aliasOf(graphBytes: Uint8Array): string {
  const g = JSON.parse(Buffer.from(graphBytes).toString('utf8')) as { id: string; version: string };
  return `${g.id}@${g.version}`;
}

/** Runs the demo graph request; true when its entry was recorded and shown. */
export async function runGraphDemo(
  stack: StackClients,
  stamp: string,
  queues: Readonly<Record<string, string>>,
  io: CliIo,
): Promise<boolean> {
  const dir = repoFile(DEMO_GRAPH.project);
  const graphPath = join(dir, DEMO_GRAPH.graph);
  io.stdout(`\n== judgment graph: publishing ${DEMO_GRAPH.project} (its packs, subgraph, then the graph)\n`);
  if (!(await publishGraph(join(dir, DEMO_GRAPH.config), graphPath, stack, io, false))) {
    io.stderr('warning: the demo graph was not published; no graph request sent\n');
    return false;
  }
  const requestId = `graph-${stamp}-${DEMO_GRAPH.name}`;
  const alias = aliasOf(new Uint8Array(readFileSync(graphPath)));
  const built = buildGraphRequest({
    requestId,
    graph: alias,
    inputs: new Uint8Array(readFileSync(join(dir, DEMO_GRAPH.inputs))),
  });
  if (!built.ok) throw new Error(built.error);
  const { sendMessage } = await import('../../adapters/sqs.js');
  await sendMessage(stack.sqs, await stack.queueUrl(stack.settings.intakeQueue), { body: built.value });
  io.stdout(`submitted graph request ${requestId} (graph ${alias}, inputs ${DEMO_GRAPH.inputs})\n`);
  const recorded = await waitForEntry(stack, requestId, 60_000);
  if (recorded === null) {
    io.stderr(`warning: the graph request ${requestId} was not recorded within 60 s; see .docket/local/stack.log\n`);
    return false;
  }
  io.stdout(`\n== the graph run's ledger entry (docket show ${requestId})\n${recorded}`);
  io.stdout(`\n== its handoffs on the route queues\n`);
  await showGraphHandoffs(stack, queues, requestId, io);
  io.stdout(`\n== see it drawn: docket console, then ${consoleEntryUrl(requestId)}\n`);
  return true;
}

async function waitForEntry(stack: StackClients, requestId: string, timeoutMs: number): Promise<string | null> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const p = await stack.store.readPosition(requestId);
    if (p !== null)
      for await (const s of stack.store.readEntries(p.logId, p.seq, p.seq)) {
        const parsed = parseStoredEntry(s.body);
        return parsed.ok
          ? describeEntry(parsed.value.entry, parsed.value.entryHash)
          : `stored entry unreadable (${parsed.error.code}: ${parsed.error.detail})\n`;
      }
    await new Promise((r) => setTimeout(r, 250));
  }
  return null;
}

/** Peeks (zero visibility timeout: every message stays for its consumer) each route queue for this request's handoffs. */
async function showGraphHandoffs(
  stack: StackClients,
  queues: Readonly<Record<string, string>>,
  requestId: string,
  io: CliIo,
): Promise<void> {
  let shown = 0;
  for (const [name, url] of Object.entries(queues).sort()) {
    if (!/-route-|-unrouted$/.test(name)) continue;
    const seen = new Set<string>();
    // Handoffs are sent before the entry's notification, after the entry: a short wait covers the outbox's send.
    const peek = await stack.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 0, WaitTimeSeconds: 1 }),
    );
    for (const m of peek.Messages ?? []) {
      if (seen.has(m.MessageId ?? '')) continue;
      seen.add(m.MessageId ?? '');
      const h = readHandoffMessage(new TextEncoder().encode(m.Body ?? ''));
      if (!h.ok || h.value.requestId !== requestId) continue;
      shown += 1;
      const from = h.value.instancePath;
      // Read, not verified: the target and node are whatever the message says, printed as terminal text.
      io.stdout(
        `${terminalText(`${name.padEnd(44)} ${h.value.target ? `${h.value.target.kind}:${h.value.target.name}` : '(no destination)'}${from !== undefined ? `  from ${from}` : ''}`)}\n`,
      );
    }
  }
  if (shown === 0) io.stdout('(none on the route queues yet; "docket handoffs --route <key>" reads them)\n');
}
