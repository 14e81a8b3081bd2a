/**
 * Nothing accepted is lost (ADR 0111, ADR 0112), over the wire, with the stack process `npm start` runs: 3,000
 * requests are submitted to a stack with its data directory, whose evaluate function runs as two instances (ADR 0259,
 * two writers appending to the same logs); the stack then dies — SIGKILLed mid-run from outside,
 * SIGKILLed from inside the function thread mid-append (the entry written, its position marker not), or stopped
 * gracefully one second after the submission — and is started again on the same directory. Within a bounded time
 * every request is accounted for: one ledger entry, or (the unidentifiable ones) a reject with its reason. No
 * request has two entries, every requested handoff is on a handoff queue under its handoff id (duplicates of an id
 * are byte-identical redeliveries), and `docket verify` is ok.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { memoryIo } from '../../cli/io.js';
import { sendMessages } from '../../adapters/sqs.js';
import { keyPairFromSeed, signerFromKeyPair, type Ed25519KeyPair } from '../../core/ledger/primitives/signature.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { handoffId, readHandoffMessage } from '../../core/pipeline/handoff-message.js';
import { buildRequest } from '../../core/pipeline/request-builder.js';
import { resolveSettings } from '../../stack/settings.js';
import { validatePack } from '../../core/pack/index.js';
import { rfc3339Now, runCheckpoints } from '../../functions/lib/checkpoint-runner.js';
import { DEMO_PACKS, DEMO_REQUESTS } from '../../stack/local-demo.js';
import { ensureSigningKey, trustPolicyDocument } from '../../stack/local-files.js';
import { openStack, type StackClients } from '../../stack/clients.js';
import { pipelineHandlers, probeStack, startDaemon, stopDaemon, type StackState } from '../../localstack/daemon.js';
import { buildModuleBeside, buildServeEntry } from '../localstack/build-serve.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

const STAGE = 'local'; // the local stage's route queues: every example target has one
const REQUESTS = 3_000;
const UNIDENTIFIED_EVERY = 100; // 30 of the 3,000 have no usable request id: they must reach the rejects queue
const BUILD = 'c'.repeat(64);
const enc = new TextEncoder();

let entry: string;
let handler: string;
let sequence: string;
let deliver: string;
let work: string;
let keys: Ed25519KeyPair;
/** The checkpoint key is a second key, never the entry key (ADR 0120). */
const checkpointKeys = keyPairFromSeed(new Uint8Array(32).fill(7));
let keyFile: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'docket-crash-'));
  entry = await buildServeEntry();
  handler = await buildModuleBeside(entry, 'test/e2e/fixtures/crash-mid-append.ts', 'crash-mid-append');
  sequence = await buildModuleBeside(entry, 'functions/sequence.ts', 'sequence');
  deliver = await buildModuleBeside(entry, 'functions/deliver.ts', 'deliver');
  keyFile = join(work, 'key.json');
  keys = ensureSigningKey(keyFile).keys;
}, 120_000);

afterAll(async () => {
  for (const d of ['kill', 'mid-append', 'stop']) await stopDaemon({ stateDir: join(work, d) }).catch(() => undefined);
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const repoFile = (rel: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../${rel}`, import.meta.url)));

function start(stateDir: string, crashAfterEntryPuts = 0): ReturnType<typeof startDaemon> {
  return startDaemon({
    stateDir,
    port: 0,
    stage: STAGE,
    entry,
    // Cut-off batches come back after 10 s instead of the template's visibility timeout.
    // Intake → sequence → FIFO ledger queue → evaluate (ADR 0270) → delivery queue → deliver (ADR 0404).
    handlers: pipelineHandlers({ sequence, evaluate: handler, deliver }, 10),
    // Two instances, as Lambda runs several: each log's message group is held by one of them at a time (FIFO), and
    // the mid-append kill comes from inside whichever instance reaches its count first (ADR 0259).
    functionInstances: 2,
    drainSeconds: 10,
    env: {
      DOCKET_SIGNING_KEY_FILE: keyFile,
      DOCKET_BUILD_DIGEST: BUILD,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      POWERTOOLS_METRICS_DISABLED: 'true',
      ...(crashAfterEntryPuts > 0
        ? {
            CRASH_AFTER_ENTRY_PUTS: String(crashAfterEntryPuts),
            CRASH_ARMED: join(stateDir, 'armed'),
            CRASH_MARKER: join(stateDir, 'crashed'),
          }
        : {}),
    },
  });
}

const clients = (s: StackState): StackClients =>
  openStack(resolveSettings({ endpoint: s.endpoint, stage: s.stage, region: s.region }, {}));

interface Batch {
  readonly identified: string[];
  readonly unidentified: string[];
  readonly bodies: string[];
}

async function makeBatch(s: StackClients, tag: string): Promise<Batch> {
  const digests = new Map<string, string>();
  for (const file of DEMO_PACKS) {
    const v = validatePack(repoFile(`examples/${file}`));
    if (!v.conformant || !v.pack) continue;
    const plain = v.pack.plain as { id: string; version: string };
    const out = await s.registry.publish(String(plain.id), String(plain.version), repoFile(`examples/${file}`));
    if (!out.ok) throw new Error(out.message);
    digests.set(file, out.digest);
  }
  const templates = DEMO_REQUESTS.filter((r) => digests.has(r.pack));
  const batch: Batch = { identified: [], unidentified: [], bodies: [] };
  for (let i = 0; i < REQUESTS; i++) {
    if (i % UNIDENTIFIED_EVERY === UNIDENTIFIED_EVERY - 1) {
      const body = `not a request: ${tag} #${i}`;
      batch.unidentified.push(body);
      batch.bodies.push(body);
      continue;
    }
    const r = templates[i % templates.length]!;
    const requestId = `${tag}-${i}-${r.name}`;
    const built = buildRequest({
      requestId,
      pack: `sha256:${digests.get(r.pack)}`,
      facts: repoFile(`examples/requests/${r.facts}`),
      ...(r.evidence ? { evidence: repoFile(`examples/requests/${r.evidence}`) } : {}),
      ...(r.workBudget ? { workBudget: r.workBudget } : {}),
    });
    if (!built.ok) throw new Error(built.error);
    batch.identified.push(requestId);
    batch.bodies.push(built.value);
  }
  return batch;
}

/** What `docket submit --file` does on the wire: SendMessageBatch, ten at a time. */
async function submit(s: StackClients, state: StackState, batch: Batch): Promise<void> {
  const url = state.queues[`docket-${STAGE}-intake`]!;
  for (let i = 0; i < batch.bodies.length; i += 200) {
    await sendMessages(
      s.sqs,
      url,
      batch.bodies.slice(i, i + 200).map((body, j) => ({ id: `m${j}`, body })),
    );
  }
}

async function drain(s: StackClients, url: string): Promise<{ body: string; reason?: string }[]> {
  const out: { body: string; reason?: string }[] = [];
  for (;;) {
    const r = await s.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }),
    );
    const msgs = r.Messages ?? [];
    if (msgs.length === 0) return out;
    for (const m of msgs) out.push({ body: m.Body ?? '', reason: m.MessageAttributes?.DocketReason?.StringValue });
    await s.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: msgs.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
      }),
    );
  }
}

/** Waits (bounded) until every request has a position marker or a reject (ADR 0492); returns the rejects. */
async function accountFor(s: StackClients, state: StackState, batch: Batch, timeoutMs: number) {
  const rejects = state.queues[`docket-${STAGE}-rejects`]!;
  const dead: { body: string; reason?: string }[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const positions = new Set<string>();
    for await (const p of s.store.listPositions()) positions.add(p.requestId);
    dead.push(...(await drain(s, rejects)));
    const deadBodies = new Set(dead.map((d) => d.body));
    const missing = [
      ...batch.identified.filter((id) => !positions.has(id)),
      ...batch.unidentified.filter((b) => !deadBodies.has(b)),
    ];
    if (missing.length === 0) return dead;
    if (Date.now() > until) throw new Error(`${missing.length} requests unaccounted for, e.g. ${missing.slice(0, 3)}`);
    await new Promise((r) => setTimeout(r, 2_000)); // each look scans the table: not too often
  }
}

async function checkLedgerAndHandoffs(s: StackClients, state: StackState, batch: Batch, tag: string): Promise<void> {
  // One entry per identified request, and no other entry of this run.
  const entriesOf = new Map<string, { entryHash: string; handoffs: number }[]>();
  for (const logId of await s.store.listLogs()) {
    for await (const e of s.store.readEntries(logId, 0)) {
      const parsed = parseStoredEntry(e.body);
      if (!parsed.ok) throw new Error(`unreadable entry ${logId}#${e.seq}`);
      const en = parsed.value.entry;
      if (!en.requestId.startsWith(`${tag}-`)) continue;
      const h = en.kind === 'disposition' ? en.disposition.handoff : undefined;
      const handoffs = h?.state === 'requested' ? (h.routes?.length ?? 1) : 0;
      const list = entriesOf.get(en.requestId) ?? [];
      list.push({ entryHash: parsed.value.entryHash, handoffs });
      entriesOf.set(en.requestId, list);
    }
  }
  expect([...entriesOf.keys()].sort()).toEqual([...batch.identified].sort());
  expect([...entriesOf.values()].filter((l) => l.length !== 1)).toEqual([]);

  // Every requested handoff, under its id (entry hash + route index), on a handoff queue; nothing else.
  const expected = new Set<string>();
  for (const [, [e]] of entriesOf) for (let i = 0; i < e!.handoffs; i++) expected.add(handoffId(e!.entryHash, i));
  const seen = new Map<string, string>();
  const queues = Object.entries(state.queues).filter(([n]) => /-route-|-unrouted$/.test(n) && !n.endsWith('-dlq'));
  const until = Date.now() + 30_000;
  while ([...expected].some((id) => !seen.has(id)) && Date.now() < until) {
    for (const [, url] of queues) {
      for (const m of await drain(s, url)) {
        const h = readHandoffMessage(enc.encode(m.body));
        if (!h.ok) throw new Error(`a handoff queue holds a message that is no handoff: ${h.error.message}`);
        if (!h.value.requestId.startsWith(`${tag}-`)) continue;
        const before = seen.get(h.value.handoffId);
        if (before !== undefined) expect(m.body).toBe(before); // a redelivery, byte for byte
        seen.set(h.value.handoffId, m.body);
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(expected.size).toBeGreaterThan(0);
  expect(new Set(seen.keys())).toEqual(expected);
}

async function verify(state: StackState): Promise<{ code: number; out: string }> {
  const s = clients(state);
  try {
    const names = JSON.parse(JSON.stringify({ logIds: [...new Set((await s.store.listLogs()).sort())] })) as {
      logIds: string[];
    };
    const table = s.settings.ledgerTable;
    const policyText = trustPolicyDocument({
      keys,
      checkpointKey: checkpointKeys,
      logIds: names.logIds,
      environment: STAGE,
      table,
      evaluatorBuilds: [BUILD],
    });
    const policy = readTrustPolicy(new TextEncoder().encode(policyText));
    if (!policy.ok) throw new Error(policy.error.detail);
    const cp = await runCheckpoints({
      store: s.store,
      signer: signerFromKeyPair(checkpointKeys),
      policy: policy.value,
      logIds: names.logIds,
      origin: { environment: STAGE, table },
      time: rfc3339Now(),
    });
    expect(cp.refused).toEqual([]);
    const dir = mkdtempSync(join(work, 'verify-'));
    writeFileSync(join(dir, 'checkpoints.json'), cp.export);
    writeFileSync(join(dir, 'policy.json'), policyText);
    const io = memoryIo();
    const { run } = await import('../../cli/commands/verify.js');
    const code = await run(
      [
        '--endpoint',
        state.endpoint,
        '--region',
        state.region,
        '--stage',
        STAGE,
        '--policy',
        join(dir, 'policy.json'),
        '--checkpoints',
        join(dir, 'checkpoints.json'),
      ],
      io,
    );
    return { code, out: io.out() + io.err() };
  } finally {
    s.close();
  }
}

async function scenario(
  name: string,
  interrupt: (state: StackState, s: StackClients, batch: Batch) => Promise<void>,
  crashAfterEntryPuts = 0,
): Promise<void> {
  const stateDir = join(work, name);
  const first = await start(stateDir, crashAfterEntryPuts);
  expect(first.functionInstances).toBe(2);
  let s = clients(first);
  const batch = await makeBatch(s, name);
  await submit(s, first, batch);
  await interrupt(first, s, batch);
  s.close();

  const again = await start(stateDir);
  expect(again.alreadyRunning).toBe(false);
  s = clients(again);
  try {
    const dead = await accountFor(s, again, batch, 180_000);
    // Each unidentifiable request reached the rejects queue with its reason (a redelivery may add a copy, never lose one).
    for (const d of dead.filter((x) => batch.unidentified.includes(x.body))) expect(d.reason).toBe('request-not-json');
    await checkLedgerAndHandoffs(s, again, batch, name);
  } finally {
    s.close();
  }
  const v = await verify(again);
  expect(v.out).toMatch(/"ok":true/);
  expect(v.code).toBe(0);
  await stopDaemon({ stateDir });
}

describe('3,000 requests and a stack that dies', () => {
  it('are all accounted for after a SIGKILL of the stack mid-run and a restart', async () => {
    await scenario('kill', async (state, s, batch) => {
      // Mid-run: the first entries written (a cheap GetItem per look, not a scan), most requests queued or in flight.
      const until = Date.now() + 60_000;
      for (let i = 0; Date.now() < until; i = (i + 1) % 50) {
        if (await findPosition(s.store, batch.identified[i]!)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      process.kill(state.pid, 'SIGKILL');
      expect((await probeStack(join(work, 'kill'))).status).toBe('dead');
    });
  }, 400_000);

  it('are all accounted for after the function thread kills the stack mid-append and a restart', async () => {
    await scenario(
      'mid-append',
      async () => {
        writeFileSync(join(work, 'mid-append', 'armed'), ''); // the submission is complete: crash from now on
        const marker = join(work, 'mid-append', 'crashed');
        const until = Date.now() + 120_000;
        while (!existsSync(marker) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
        expect(existsSync(marker)).toBe(true);
        // The process is gone (SIGKILLed by its own function thread): the stack is dead, never "running".
        const probeUntil = Date.now() + 10_000;
        let status = (await probeStack(join(work, 'mid-append'))).status;
        while (status === 'running' && Date.now() < probeUntil) {
          await new Promise((r) => setTimeout(r, 100));
          status = (await probeStack(join(work, 'mid-append'))).status;
        }
        expect(status).toBe('dead');
      },
      // Ledger items, not entries: a bundle of up to 64 entries is one item (ADR 0506), so 3,000 requests make ~50.
      10,
    );
  }, 400_000);

  it('are all accounted for after a graceful stop one second after submitting and a restart', async () => {
    await scenario('stop', async () => {
      await new Promise((r) => setTimeout(r, 1_000));
      const stopped = await stopDaemon({ stateDir: join(work, 'stop') });
      expect(stopped).toMatchObject({ stopped: true, killed: false });
      // It said what it left: the requests it had not evaluated yet are counted on the intake queue or, once the
      // sequencer forwarded them, on the FIFO ledger queue (ADR 0270).
      const left = stopped.stopped
        ? stopped.report?.queues.filter((q) =>
            [`docket-${STAGE}-intake`, `docket-${STAGE}-ledger.fifo`].includes(q.queue),
          )
        : [];
      expect(left).toHaveLength(2);
      expect(left!.reduce((n, q) => n + q.waiting + q.inFlight, 0)).toBeGreaterThan(0);
    });
  }, 400_000);
});
