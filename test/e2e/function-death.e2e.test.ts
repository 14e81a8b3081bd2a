/**
 * "The handler killed after the ledger write" (docs/pipeline.md): not a thrown error but a dead function instance. The
 * stack process (as `npm start` runs it) hosts the evaluate handler on a worker thread of its own (ADR 0068); the
 * handler here is the real one, except that its instance exits mid-invocation right after the ledger write of one
 * request and before the delivery job naming it is sent (fixtures/dies-after-append.ts; ADR 0404). Nothing answers
 * for that batch and nothing deletes it: the function host replaces the instance, SQS redelivers the records after
 * their visibility timeout, the new instance finds the entry already written and names it in a new job, and the
 * deliver function sends its handoff under the entry's handoff id.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../stack/settings.js';
import { ensureSigningKey } from '../../stack/local-files.js';
import { openStack, type StackClients } from '../../stack/clients.js';
import { startDaemon, stopDaemon, type StackState } from '../../localstack/daemon.js';
import { buildModuleBeside, buildServeEntry } from '../localstack/build-serve.js';
import type { HandoffMessage } from '../../core/pipeline/handoff-message.js';
import { ex, handoffs, worldIo, type WorldIo } from './world-io.js';

const STAGE = 'die';
let work: string;
let entry: string;
let state: StackState;
let s: StackClients;
let io: WorldIo;
const marker = (): string => join(work, 'died');
const queueUrl = (suffix: string): string => state.queues[`docket-${STAGE}-${suffix}`]!;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'docket-death-'));
  entry = await buildServeEntry();
  const handler = await buildModuleBeside(entry, 'test/e2e/fixtures/dies-after-append.ts', 'dies-after-append');
  const sequence = await buildModuleBeside(entry, 'functions/sequence.ts', 'sequence');
  const deliver = await buildModuleBeside(entry, 'functions/deliver.ts', 'deliver');
  const keyFile = join(work, 'key.json');
  ensureSigningKey(keyFile);
  state = await startDaemon({
    stateDir: join(work, 'state'),
    port: 0,
    dataDir: null,
    stage: STAGE,
    entry,
    // Intake → sequence → FIFO ledger queue → the dying evaluate handler (ADR 0270) → delivery queue → deliver.
    handlers: [
      { module: sequence, functionMatch: 'SequencerSequence' },
      { module: handler, functionMatch: 'EvaluatorEvaluate', visibilityTimeoutSeconds: 2 },
      // The local host runs every function on the dying thread: a job in flight there comes back as quickly.
      { module: deliver, functionMatch: 'DelivererDeliver', visibilityTimeoutSeconds: 2 },
    ],
    env: {
      DOCKET_SIGNING_KEY_FILE: keyFile,
      DIE_AFTER_APPEND: 'dies-once',
      DIE_MARKER: marker(),
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      POWERTOOLS_METRICS_DISABLED: 'true',
    },
  });
  s = openStack(resolveSettings({ endpoint: state.endpoint, stage: STAGE, region: state.region }, {}));
  io = await worldIo({ registry: s.registry, sqs: s.sqs, store: s.store, queueUrl });
}, 120_000);

afterAll(async () => {
  s?.close();
  await stopDaemon({ stateDir: join(work, 'state') }).catch(() => undefined);
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('a function instance that dies after the ledger write', () => {
  it('is replaced, and the redelivered request sends its handoff with the recorded entry and the same handoff id', async () => {
    const neighbour = io.request(
      'lives',
      'vendor',
      ex('requests/vendor-no-match.facts.json'),
      ex('requests/vendor-certificate.evidence.json'),
    );
    const victim = io.request(
      'dies-once',
      'vendor',
      ex('requests/vendor-no-match.facts.json'),
      ex('requests/vendor-certificate.evidence.json'),
    );
    await io.submit(victim);
    await io.submit(neighbour);
    const e = await io.entryOf('dies-once', 30_000);
    // Handoffs of a target pack with no configured route queue land on `unrouted` (ADR 0073). The neighbour may be
    // handed off twice (its batch died with the victim's), so wait for each request by name, not for a count.
    const msgs: HandoffMessage[] = [];
    const until = Date.now() + 30_000;
    const seen = (id: string) => msgs.some((m) => m.requestId === id);
    while (!(seen('dies-once') && seen('lives')) && Date.now() < until)
      msgs.push(...handoffs(await io.drain(queueUrl('unrouted'), 1, 5_000)));
    const log = readFileSync(join(work, 'state', 'stack.log'), 'utf8');

    expect(existsSync(marker())).toBe(true); // the instance really died mid-invocation
    expect(log).toMatch(/function instance exited \(code 70\); starting a new one/);
    const died = msgs.filter((m) => m.requestId === 'dies-once');
    expect(died.length).toBeGreaterThanOrEqual(1);
    // The entry the dead instance had written is the one its redelivery found and the stage delivered: one id.
    expect(readFileSync(marker(), 'utf8')).toBe(`${e.logId}/${e.seq}`);
    expect(new Set(died.map((m) => m.handoffId)).size).toBe(1);
    expect(new Set(died.map((m) => m.ledger.entryHash))).toEqual(new Set([e.entryHash]));
    expect(msgs.some((m) => m.requestId === 'lives')).toBe(true);
    let entries = 0;
    for await (const x of s.store.readEntries(e.logId, 0)) if (x.projection.requestId === 'dies-once') entries += 1;
    expect(entries).toBe(1);
  }, 90_000);
});
