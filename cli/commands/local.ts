/**
 * `docket local start | stop | status` — the main job on a laptop (README "Two commands on a fresh machine"; ADR 0066,
 * ADR 0076). `start` brings the local stack up detached (localstack/daemon.ts), keeps the entry key, the separate
 * checkpoint key (never given to the evaluate function) and the trust policy under .docket/local/, then runs the demo
 * (publish, submit, entries, route queues, checkpoint, local witness, verify; `--graphs`: cli/graph/graph-demo.ts) and
 * exits leaving the stack running.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { approximateDepth } from '../../adapters/sqs.js';
import { archiveCheckOf } from '../../stack/request-omissions.js';
import { EXIT, flagTable, parseCommandArgs, parsePort, parsePositiveInteger } from '../args.js';
import type { CliIo } from '../io.js';
import type { StackState } from '../../localstack/daemon.js';
import { graphRunStatus, signerFromKeyPair } from '../../core/ledger/index.js';
import { waitForEntries, type StoredRead } from '../wait-entries.js';
import { readTrustPolicy, rememberedPermits, type DraftFeatureAllowance } from '../../core/ledger/index.js';
import { validatePack } from '../../core/pack/index.js';
import { buildRequest } from '../../core/pipeline/index.js';
import { resolveSettings, type StackSettings } from '../../stack/settings.js';
import { buildDigest } from '../../functions/lib/build-digest.js';
import { describeRefusal, rfc3339Now, runCheckpoints } from '../../functions/lib/checkpoint-runner.js';
import { DEMO_PACKS, DEMO_REQUESTS } from '../../stack/local-demo.js';
import { ensureSigningKey, localPaths, trustPolicyDocument } from '../../stack/local-files.js';
import { openStack, type StackClients } from '../../stack/clients.js';
import { terminalText } from '../terminal-text.js';
import { packageFile } from '../console/server.js';

const USAGE =
  'docket local start [--port <n>] [--function-instances <n>] [--quiet] [--rfc0008-quantifiers] [--graphs] | docket local stop | docket local status';

export async function run(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'stop') return stop(io);
  if (sub === 'status') return status(io);
  if (sub === 'start') return start(rest, io);
  io.stderr(`usage: ${USAGE}\n`);
  return sub === '--help' || sub === '-h' ? EXIT.OK : EXIT.USAGE;
}

/** Graceful (ADR 0112): no new batches, in-flight ones finish within the drain bound, then the queue counts. */
async function stop(io: CliIo): Promise<number> {
  const { stopDaemon } = await import('../../localstack/daemon.js');
  const { formatQueueCounts } = await import('../../localstack/queue-counts.js');
  io.stdout('stopping the local stack: no new batches; letting in-flight ones finish…\n');
  const r = await stopDaemon();
  if (!r.stopped) {
    io.stdout(r.dead ? `the local stack had died (${r.dead}); cleaned up\n` : 'no local stack is running\n');
    return EXIT.OK;
  }
  if (r.killed) io.stdout(`local stack (pid ${r.pid}) did not stop in time and was killed\n`);
  else io.stdout(`local stack stopped (pid ${r.pid})\n`);
  if (r.report) {
    if (!r.report.drained)
      io.stdout('some in-flight batches were cut off by the drain bound: they reappear when the stack starts again\n');
    io.stdout(
      `messages kept on the queues (delivered when the stack starts again):\n${formatQueueCounts(r.report.queues)}`,
    );
  }
  return EXIT.OK;
}

async function status(io: CliIo): Promise<number> {
  const { probeStack, readStopReport } = await import('../../localstack/daemon.js');
  const { formatQueueCounts, queueCounts } = await import('../../localstack/queue-counts.js');
  const p = await probeStack();
  if (p.status !== 'running') {
    if (p.status === 'dead') io.stdout(`the local stack had died (pid ${p.state.pid}: ${p.cleaned}); cleaned up\n`);
    io.stdout('no local stack is running (start it with "npm start")\n');
    // After a crash the last graceful stop's figures are stale: shown only when the stack really was stopped.
    const last = p.status === 'none' ? readStopReport() : null;
    if (last)
      io.stdout(`messages kept on the queues at the last stop (${last.stoppedAt}):\n${formatQueueCounts(last.queues)}`);
    return EXIT.FAILED;
  }
  const s = p.state;
  io.stdout(`local stack running: ${s.endpoint} (pid ${s.pid}, stage ${s.stage}, since ${s.startedAt})\n`);
  const { createSqsClient } = await import('../../adapters/aws-clients.js');
  const sqs = createSqsClient({ endpoint: s.endpoint, region: s.region });
  try {
    io.stdout(`messages on the queues:\n${formatQueueCounts(await queueCounts(sqs, s.queues))}`);
  } finally {
    sqs.destroy();
  }
  return EXIT.OK;
}

async function start(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    flagTable(['port', 'function-instances'], ['quiet', 'rfc0008-quantifiers', 'graphs']),
    USAGE,
  );
  const port = typeof values.port === 'string' ? parsePort(values.port) : 4566;
  // Instances of the evaluate function (worker threads); absent: DOCKET_FUNCTION_INSTANCES, else 1 (ADR 0259).
  const functionInstances =
    typeof values['function-instances'] === 'string'
      ? parsePositiveInteger(values['function-instances'], '--function-instances')
      : undefined;
  const say = (s: string): void => io.stdout(s);
  // The opt-in of ADR 0190 for the stack's evaluator: its entries record it (ADR 0220, ADR 0221).
  // --graphs enables judgment graphs, a draft feature too (docs/graphs.md "Through the pipeline", ADR 0370).
  const draftFeatures: string[] = [
    ...(values.graphs === true ? ['judgment-graphs'] : []),
    ...(values['rfc0008-quantifiers'] === true ? ['rfc0008-quantifiers'] : []),
  ];
  const paths = localPaths();
  const { keys, created } = ensureSigningKey(paths.signingKey);
  say(`${created ? 'created' : 'using'} entry signing key ${keys.keyId} (${paths.signingKey})\n`);
  const checkpointKey = ensureSigningKey(paths.checkpointKey);
  say(
    `${checkpointKey.created ? 'created' : 'using'} checkpoint key ${checkpointKey.keys.keyId} (${paths.checkpointKey})\n`,
  );

  const { pipelineHandlers, startDaemon } = await import('../../localstack/daemon.js');
  const evaluateModule = packageFile('dist/functions/evaluate.js');
  const state = await startDaemon({
    port,
    handlers: pipelineHandlers({
      sequence: packageFile('dist/functions/sequence.js'),
      evaluate: evaluateModule,
      deliver: packageFile('dist/functions/deliver.js'),
    }),
    ...(functionInstances !== undefined ? { functionInstances } : {}),
    draftFeatures,
    env: {
      DOCKET_SIGNING_KEY_FILE: paths.signingKey,
      POWERTOOLS_LOG_LEVEL: 'WARN',
      // Metrics on: the functions' EMF lines go to .docket/local/stack.log as a function's go to CloudWatch Logs,
      // where `docket bench live` reads them back (docs/deploy.md "Observe it").
    },
  });
  if (state.recovered) say(`the previous local stack had died (${state.recovered}); cleaned up, its data kept\n`);
  const running = [...(state.draftFeatures ?? [])].join(',');
  if (state.alreadyRunning && running !== draftFeatures.join(',')) {
    io.stderr(
      `the running local stack enables draft features [${running}], not [${draftFeatures.join(',')}]: stop it first ("npm run stop")\n`,
    );
    return EXIT.FAILED;
  }
  if (draftFeatures.length > 0)
    say(
      `draft features enabled: ${draftFeatures.join(', ')} (entries are docket.ledger-entry/2${values.graphs === true ? '; graph runs /3' : ''})\n`,
    );
  say(
    `${state.alreadyRunning ? 'local stack already running' : 'local stack started'} on ${state.endpoint} (pid ${state.pid}, stage ${state.stage}, ${state.functionInstances ?? 1} evaluate function instance(s); log .docket/local/stack.log)\n`,
  );

  const settings = resolveSettings({ endpoint: state.endpoint, stage: state.stage, region: state.region }, {});
  const { resolveConfig } = await import('../../infra/config.js');
  const { resourceNames } = await import('../../infra/names.js');
  const deployed = resolveConfig({ stage: state.stage, draftFeatures });
  const names = resourceNames(state.stage, deployed);
  const build = buildDigest({}, new URL(`file://${evaluateModule}`).href);
  // Keep builds an earlier run allowed: a stack already running may be running an older build than dist/ holds now.
  const builds = [build, ...previousBuilds(paths.trustPolicy)];
  // The policy remembers (ADR 0462): seqs already written keep the draft features the earlier policy permitted there;
  // this run's features are permitted from each log's next seq on.
  const permits = rememberedPermits(
    previousPermits(paths.trustPolicy),
    names.logIds,
    await entriesWritten(settings, names.logIds),
    draftFeatures,
  );
  const policyText = trustPolicyDocument({
    keys,
    checkpointKey: checkpointKey.keys,
    logIds: names.logIds,
    environment: state.stage,
    table: names.ledgerTable,
    evaluatorBuilds: builds,
    permits,
  });
  writeFileSync(paths.trustPolicy, policyText);
  const policy = readTrustPolicy(new TextEncoder().encode(policyText));
  if (!policy.ok) throw new Error(`the trust policy just written is invalid: ${policy.error.detail}`);
  say(
    `trust policy ${paths.trustPolicy} (entry key ${keys.keyId}, checkpoint key ${checkpointKey.keys.keyId}, logs ${names.logIds.join(', ')}, evaluator build ${build.slice(0, 12)}…)\n`,
  );

  const stack = openStack(settings);
  try {
    const digests = await publishExamples(stack, io);
    const stamp = rfc3339Now()
      .replace(/[-:TZ]/g, '')
      .slice(0, 14);
    const ids = await submitDemo(stack, digests, `demo-${stamp}`, io);
    const recorded = await waitForEntries(stack, ids, 60_000);
    if (recorded.size < ids.length)
      io.stderr(
        `warning: ${ids.length - recorded.size} demo request(s) not recorded within 60 s; see .docket/local/stack.log\n`,
      );
    say('\n== dispositions and ledger entries\n');
    for (const id of ids) if (recorded.has(id)) say(`${entryLine(id, recorded.get(id)!)}\n`);
    if (values.graphs === true) {
      const { runGraphDemo } = await import('../graph/graph-demo.js');
      await runGraphDemo(stack, stamp, deployed.routes, io);
    }
    say('\n== route queues (messages waiting; read them with "docket handoffs --route <key>")\n');
    await showQueues(stack, state.queues, io);
    const cpTime = rfc3339Now();
    const archive = await archiveCheckOf(stack);
    const cp = await runCheckpoints({
      ...('missing' in archive ? {} : { omissions: archive.findings }),
      store: stack.store,
      signer: signerFromKeyPair(checkpointKey.keys),
      policy: policy.value,
      logIds: names.logIds,
      origin: { environment: state.stage, table: names.ledgerTable },
      time: cpTime,
    });
    writeFileSync(paths.checkpoints, cp.export);
    for (const r of cp.refused) io.stderr(`warning: ${terminalText(describeRefusal(r))}\n`);
    if (cp.notes !== null) writeFileSync(paths.checkpointNotes, cp.notes);
    const exported = await exportCheckpoints(state, cp.export, cpTime);
    say(
      `\n== checkpoints ${cp.checkpoints.map((c) => `${c.logId}:${c.treeSize}`).join('  ')} → ${paths.checkpoints}${exported ? ` and ${exported}` : ''}\n`,
    );
  } finally {
    stack.close();
  }
  // verify reads its stack settings from the environment when no flag is given: point it at this stack (the
  // same as the default on port 4566; needed when --port chose another one).
  process.env.DOCKET_ENDPOINT ??= state.endpoint;
  process.env.DOCKET_STAGE ??= state.stage;
  const { runLocalWitness } = await import('../witness/local-witness.js');
  const verified = await runVerify(io, await runLocalWitness(io, { freshLedger: !state.alreadyRunning }));
  say(
    `\nThe stack keeps running on ${state.endpoint}. Try: docket tail --from-start --once | docket show <request-id> | docket handoffs --route oversight | docket verify\nStop it with: npm run stop\n`,
  );
  return verified;
}

/**
 * The same export the checkpoint function writes in AWS, to the template's export bucket on the local S3:
 * `s3://<bucket>/checkpoints/<run time>.json` (infra/constructs/checkpoints.ts). Returns its URI, or null when the
 * stack has no such bucket.
 */
async function exportCheckpoints(state: StackState, body: string, time: string): Promise<string | null> {
  const bucket = Object.entries(state.buckets ?? {}).find(([id]) => id.startsWith('CheckpointsExport'))?.[1];
  if (!bucket) return null;
  const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
  const { LOCAL_CREDENTIALS } = await import('../../adapters/aws-clients.js');
  const s3 = new S3Client({
    endpoint: state.endpoint,
    region: state.region,
    credentials: { ...LOCAL_CREDENTIALS },
    forcePathStyle: true,
  });
  const key = `checkpoints/${time}.json`; // CHECKPOINT_EXPORT_PREFIX (not imported: it would load aws-cdk-lib)
  try {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/json' }));
  } finally {
    s3.destroy();
  }
  return `s3://${bucket}/${key}`;
}

/** The draft-feature permits of the policy an earlier run wrote; none when there is no readable one. */
function previousPermits(file: string): readonly DraftFeatureAllowance[] {
  if (!existsSync(file)) return [];
  const p = readTrustPolicy(new Uint8Array(readFileSync(file)));
  return p.ok ? (p.value.draftFeatures ?? []) : [];
}

/** Each log's number of entries (its next seq), from its head. */
async function entriesWritten(settings: StackSettings, logIds: readonly string[]): Promise<Map<string, number>> {
  const stack = openStack(settings);
  try {
    const out = new Map<string, number>();
    for (const logId of logIds) out.set(logId, ((await stack.store.readHead(logId))?.seq ?? -1) + 1);
    return out;
  } finally {
    stack.close();
  }
}

function previousBuilds(file: string): string[] {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { evaluatorBuilds?: unknown };
    return Array.isArray(v.evaluatorBuilds)
      ? v.evaluatorBuilds.filter((b): b is string => typeof b === 'string' && /^[0-9a-f]{64}$/.test(b))
      : [];
  } catch {
    return [];
  }
}

async function publishExamples(stack: StackClients, io: CliIo): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  for (const file of DEMO_PACKS) {
    const bytes = new Uint8Array(readFileSync(packageFile(`examples/${file}`)));
    const v = validatePack(bytes);
    if (!v.conformant || !v.pack) {
      io.stderr(`example ${file} is not conformant (${v.class}); skipped\n`);
      continue;
    }
    const plain = v.pack.plain as { id: string; version: string };
    const out = await stack.registry.publish(String(plain.id), String(plain.version), bytes);
    if (!out.ok) throw new Error(`publishing ${file}: ${out.message}`);
    digests.set(file, out.digest);
    io.stdout(`published ${out.alias} sha256:${out.digest.slice(0, 16)}…\n`);
  }
  return digests;
}

async function submitDemo(
  stack: StackClients,
  digests: Map<string, string>,
  prefix: string,
  io: CliIo,
): Promise<string[]> {
  const url = await stack.queueUrl(stack.settings.intakeQueue);
  const { sendMessage } = await import('../../adapters/sqs.js');
  const ids: string[] = [];
  const doc = (name: string) => new Uint8Array(readFileSync(packageFile(`examples/requests/${name}`)));
  for (const r of DEMO_REQUESTS) {
    const digest = digests.get(r.pack);
    if (!digest) continue;
    const built = buildRequest({
      requestId: `${prefix}-${r.name}`,
      pack: `sha256:${digest}`,
      facts: doc(r.facts),
      ...(r.evidence ? { evidence: doc(r.evidence) } : {}),
      ...(r.workBudget ? { workBudget: r.workBudget } : {}),
    });
    if (!built.ok) throw new Error(built.error);
    await sendMessage(stack.sqs, url, { body: built.value });
    ids.push(`${prefix}-${r.name}`);
  }
  // An identified request naming an unpublished pack: recorded as an admission refusal.
  await sendMessage(stack.sqs, url, {
    body: `{"format":"docket.evaluation-request/1","requestId":"${prefix}-unknown-pack","pack":"sha256:${'0'.repeat(64)}","facts":{}}`,
  });
  ids.push(`${prefix}-unknown-pack`);
  io.stdout(`submitted ${ids.length} demo requests (${prefix}-*)\n`);
  return ids;
}

/** The main job's line for a recorded demo request: what was decided, then where it is recorded. */
function entryLine(id: string, parsed: StoredRead): string {
  if (!parsed.ok) return `${id}: stored entry unreadable (${parsed.error.code})`;
  const e = parsed.value.entry;
  const what =
    e.kind === 'disposition'
      ? `${e.disposition.kind}${e.disposition.kind === 'outcome' ? ` ${e.disposition.outcomeId}` : ''} reasons [${e.disposition.reasons.join(',')}] handoff ${e.disposition.handoff.state}${e.disposition.handoff.routes ? ` routes ${e.disposition.handoff.routes.length}` : ''}`
      : e.kind === 'evaluation-error'
        ? `evaluation-error ${e.error.class}/${e.error.phase}`
        : e.kind === 'graph-run'
          ? `graph-run ${graphRunStatus(e.run)}`
          : `admission-refusal ${e.refusal.code}`;
  return `${id.padEnd(48)} ${what}\n${''.padEnd(48)} ledger ${e.logId}#${e.seq} entry ${parsed.value.entryHash.slice(0, 16)}… work ${e.work}`;
}

/**
 * Each route queue's depth, and each DLQ's and the rejects queue's when they hold messages, read with
 * GetQueueAttributes only: a receive, even with a zero visibility timeout, spends
 * a consumer's receive count, and a few starts would move a genuine handoff to its DLQ
 * (docs/adr/0458-local-start-reads-queues-by-attributes-only.md). The handoffs themselves are in the entries above
 * and in `docket handoffs`.
 */
export async function showQueues(stack: StackClients, queues: Record<string, string>, io: CliIo): Promise<void> {
  for (const [name, url] of Object.entries(queues).sort()) {
    // The rejects queue holds what the evaluate function could not record, with its reason (ADR 0492).
    if (!/-route-|-unrouted$|-dlq$|-rejects$/.test(name)) continue;
    const d = await approximateDepth(stack.sqs, url);
    if (d.visible + d.inFlight === 0 && /-dlq$|-rejects$/.test(name)) continue;
    io.stdout(
      `${name.padEnd(44)} ${d.visible} message${d.visible === 1 ? '' : 's'}${d.inFlight > 0 ? ` (${d.inFlight} in flight)` : ''}\n`,
    );
  }
}

/** Runs `docket verify` with the given flags (loaded only here: the stack's start needs none of it); its exit code is ours. */
async function runVerify(io: CliIo, argv: string[] = []): Promise<number> {
  const { run } = await import('./verify.js');
  io.stdout(`\n== docket verify ${argv.join(' ')}\n`);
  return (await run(argv, io)) === 0 ? EXIT.OK : EXIT.FAILED;
}
