/**
 * The graph part of the main job (`npm start -- --graphs`): publishes the vendor-onboarding project (ADR 0340), runs
 * one graph request through the pipeline and shows its entry as `docket show` does, its handoffs and the console page
 * that draws the run (ADR 0370). The handoffs are planned from the signed entry (planGraphHandoffs), never received
 * from a route queue (docs/adr/0458-local-start-reads-queues-by-attributes-only.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SignedEntry } from '../../core/ledger/index.js';
import { buildGraphRequest, planGraphHandoffs } from '../../core/pipeline/index.js';
import type { RouteConfig } from '../../infra/config.js';
import { DEMO_GRAPH } from '../../stack/local-demo.js';
import type { StackClients } from '../../stack/clients.js';
import { consoleEntryUrl } from '../console/address.js';
import { routeQueueConfig } from '../console/handoffs.js';
import { describeEntry } from '../commands/show.js';
import { waitForEntries } from '../wait-entries.js';
import type { CliIo } from '../io.js';
import { packageFile } from '../console/server.js';
import { publishGraph } from './publish-graph.js';
import { terminalText } from '../terminal-text.js';

/** The published graph's alias, `id@version`, read from its document (what `docket publish` printed last). */
function aliasOf(graphBytes: Uint8Array): string {
  const g = JSON.parse(Buffer.from(graphBytes).toString('utf8')) as { id: string; version: string };
  return `${g.id}@${g.version}`;
}

/** Runs the demo graph request; true when its entry was recorded and shown. */
export async function runGraphDemo(
  stack: StackClients,
  stamp: string,
  routes: readonly RouteConfig[],
  io: CliIo,
): Promise<boolean> {
  const dir = packageFile(DEMO_GRAPH.project);
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
  const parsed = (await waitForEntries(stack, [requestId], 60_000)).get(requestId);
  if (parsed === undefined) {
    io.stderr(`warning: the graph request ${requestId} was not recorded within 60 s; see .docket/local/stack.log\n`);
    return false;
  }
  const text = parsed.ok
    ? describeEntry(parsed.value.entry, parsed.value.entryHash)
    : `stored entry unreadable (${parsed.error.code}: ${parsed.error.detail})\n`;
  io.stdout(`\n== the graph run's ledger entry (docket show ${requestId})\n${text}`);
  io.stdout(`\n== its handoffs on the route queues\n`);
  showGraphHandoffs(stack, parsed.ok ? parsed.value.entry : null, routes, io);
  io.stdout(`\n== see it drawn: docket console, then ${consoleEntryUrl(requestId)}\n`);
  return true;
}

/** The handoffs the recorded graph run sent, planned from its signed entry: no queue is read. */
function showGraphHandoffs(
  stack: StackClients,
  entry: SignedEntry | null,
  routes: readonly RouteConfig[],
  io: CliIo,
): void {
  const plan = entry?.kind === 'graph-run' ? planGraphHandoffs(entry, routeQueueConfig(stack.settings, routes)) : [];
  for (const h of plan)
    io.stdout(
      `${terminalText(`${h.queue.padEnd(44)} ${h.target ? `${h.target.kind}:${h.target.name}` : '(no destination)'}  from ${h.instancePath}`)}\n`,
    );
  if (plan.length === 0) io.stdout('(none: no node of the graph run requested a handoff)\n');
}
