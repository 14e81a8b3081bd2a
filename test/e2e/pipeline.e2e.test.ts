/**
 * The pipeline over the local stack (docs/pipeline.md): real SQS and DynamoDB wire protocols, the real evaluate
 * runtime invoked by the event-source poller. One stack for the whole file keeps the suite's runtime modest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { verifyEntrySignature } from '../ledger/fixtures.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { startE2e, type E2eWorld } from './harness.js';
import { ex, handoffs, sleep, worldIo, type WorldIo } from './world-io.js';
import { findPosition } from '../../core/ledger/store/find-position.js';

let w: E2eWorld;
let digests: WorldIo['digests'];
let request: WorldIo['request'];
let submit: WorldIo['submit'];
let entryOf: WorldIo['entryOf'];
let drain: WorldIo['drain'];

beforeAll(async () => {
  // One evaluate instance per log (4, the most FIFO runs; ADR 0273): every log written at once, one writer each.
  w = await startE2e({ config: { maximumConcurrency: 4 } });
  ({ digests, request, submit, entryOf, drain } = await worldIo(w));
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

describe('each disposition kind over the local stack', () => {
  it('records an outcome, a not-applicable, an unresolved disposition and a preflight error, each signed by the stack key', async () => {
    await submit(
      request(
        'kind-outcome',
        'triage',
        ex('requests/triage-complete-appropriate.facts.json'),
        ex('requests/triage-all-present.evidence.json'),
      ),
    );
    await submit(request('kind-na', 'triage', ex('requests/triage-instance-1-not-applicable.facts.json')));
    await submit(request('kind-unresolved', 'leave', ex('requests/leave-long.facts.json')));
    await submit(request('kind-error', 'trial', ex('requests/volunteer-adult.facts.json')));
    const kinds = [];
    for (const id of ['kind-outcome', 'kind-na', 'kind-unresolved', 'kind-error']) {
      const { entry } = await entryOf(id);
      expect(verifyEntrySignature(entry, w.keys.publicKey)).toBe(true);
      kinds.push(
        entry.kind === 'disposition'
          ? entry.disposition.kind
          : entry.kind === 'evaluation-error'
            ? `${entry.error.class}/${entry.error.phase}`
            : entry.kind,
      );
    }
    expect(kinds).toEqual(['outcome', 'not-applicable', 'unresolved', 'unsupported-required-extension/preflight']);
  });
});

describe('each handoff shape over the local stack', () => {
  it('sends a target-only handoff to the target queue with the ledger coordinates', async () => {
    await submit(
      request(
        'shape-target',
        'vendor',
        ex('requests/vendor-no-match.facts.json'),
        ex('requests/vendor-certificate.evidence.json'),
      ),
    );
    const e = await entryOf('shape-target');
    const [m, ...rest] = handoffs(await drain(w.queueUrl('route-vendor-risk'), 1));
    expect(rest).toEqual([]);
    expect(m).toMatchObject({
      shape: 'target',
      target: { kind: 'queue', name: 'Vendor Risk' },
      ledger: { logId: e.logId, seq: e.seq, entryHash: e.entryHash },
    });
  });

  it('fans filtered routes out in declaration order and keeps a duplicate target as its own message', async () => {
    await submit(
      request(
        'shape-routes',
        'triage',
        ex('requests/triage-complete-appropriate.facts.json'),
        ex('requests/triage-instance-7b.evidence.json'),
      ),
    );
    await entryOf('shape-routes');
    const steward = handoffs(await drain(w.queueUrl('route-data-steward'), 1));
    const oversight = handoffs(await drain(w.queueUrl('route-oversight'), 1));
    const desk = handoffs(await drain(w.queueUrl('route-intake-desk'), 1));
    expect([...steward, ...oversight, ...desk].map((m) => `${m.routeIndex}:${m.target?.name}`).sort()).toEqual([
      '0:Data Steward',
      '1:Oversight',
      '2:Intake Desk',
    ]);
  });

  it('sends ten routes to their queues for an extended-profile pack, sharing one queue among nine targets', async () => {
    await submit(request('shape-ten', 'incident', ex('requests/incident-unknown-severity.facts.json')));
    await entryOf('shape-ten');
    const regions = handoffs(await drain(w.queueUrl('route-regions'), 9));
    const commander = handoffs(await drain(w.queueUrl('route-incident'), 1));
    const ours = [...regions, ...commander].filter((m) => m.requestId === 'shape-ten');
    expect(new Set(ours.map((m) => m.routeIndex))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(new Set(ours.map((m) => m.handoffId)).size).toBe(10);
  });

  it('sends a destinationless direct escalation to the unrouted queue', async () => {
    await submit(request('shape-direct', 'refund', ex('requests/refund-fraud-flag.facts.json')));
    await entryOf('shape-direct');
    const [m] = handoffs(await drain(w.queueUrl('unrouted'), 1));
    expect(m).toMatchObject({ requestId: 'shape-direct', shape: 'no-destination', destination: 'no-destination' });
    expect(m!.target).toBeUndefined();
  });
});

describe('bad input over the local stack', () => {
  it('records a malformed message with a readable id as an admission refusal', async () => {
    await submit(`{"format":"${REQUEST_FORMAT}","requestId":"bad-1","pack":"sha256:${digests.vendor}"}`);
    const { entry } = await entryOf('bad-1');
    expect(entry.kind === 'admission-refusal' && entry.refusal.code).toBe('request-malformed');
  });

  it('sends a message without a usable id to the rejects queue with its reason, at once', async () => {
    await submit('{"facts": {}, "oops": ');
    const [m] = await drain(w.queueUrl('rejects'), 1);
    expect(m?.attributes.DocketReason).toBe('request-not-json');
    expect(m?.body).toBe('{"facts": {}, "oops": ');
  });

  it('refuses an unknown pack digest in the ledger', async () => {
    await submit(
      `{"format":"${REQUEST_FORMAT}","requestId":"bad-digest","pack":"sha256:${'0'.repeat(64)}","facts":{}}`,
    );
    const { entry } = await entryOf('bad-digest');
    expect(entry.kind === 'admission-refusal' && [entry.refusal.code, entry.pack?.digest]).toEqual([
      'unknown-pack-digest',
      '0'.repeat(64),
    ]);
  });

  it('records an over-budget evaluation as resource exhaustion with the work charged', async () => {
    await submit(
      request(
        'over-budget',
        'triage',
        ex('requests/triage-complete-appropriate.facts.json'),
        undefined,
        ',"workBudget":5',
      ),
    );
    const { entry } = await entryOf('over-budget');
    expect(entry.kind === 'evaluation-error' && [entry.error.class, entry.error.phase, entry.workBudget]).toEqual([
      'resource-exhaustion',
      'evaluation',
      5,
    ]);
  });
});

describe('volume over the local stack', () => {
  it('accounts for 1,000 requests: entries plus rejects equal what was submitted, and docket verify says ok', async () => {
    const entryCount = async (): Promise<number> => {
      let n = 0;
      for (const log of await w.store.listLogs()) {
        const h = await w.store.readHead(log);
        n += h === null ? 0 : h.seq + 1;
      }
      return n;
    };
    const before = await entryCount();
    const ids: string[] = [];
    const bodies: string[] = [];
    const facts = [ex('requests/vendor-low-risk.facts.json'), ex('requests/vendor-no-match.facts.json')];
    for (let i = 0; i < 1000; i++) {
      if (i % 100 === 99) bodies.push(`not a request ${i}`);
      else {
        ids.push(`bulk-${i}`);
        bodies.push(request(`bulk-${i}`, 'vendor', facts[i % 2]!, ex('requests/vendor-certificate.evidence.json')));
      }
    }
    const intake = w.queueUrl('intake');
    for (let i = 0; i < bodies.length; i += 10) {
      await w.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: intake,
          Entries: bodies.slice(i, i + 10).map((b, j) => ({ Id: String(j), MessageBody: b })),
        }),
      );
    }
    // Poll the log heads (4 queries), not 990 positions: the emulator's time goes to the pipeline, not to us.
    const until = Date.now() + 240_000;
    while ((await entryCount()) < before + ids.length && Date.now() < until) await sleep(1000);
    expect((await entryCount()) - before).toBe(ids.length);
    let recorded = 0;
    for (const id of ids) if (await findPosition(w.store, id)) recorded += 1;
    // Every request is accounted for: an entry, or a reject with its reason (ADR 0492).
    const dead = await drain(w.queueUrl('rejects'), 10, 10_000);
    expect(recorded + dead.length).toBe(1000);
    expect(dead.every((m) => m.attributes.DocketReason === 'request-not-json')).toBe(true);
    // docket verify over the live table, with a checkpoint of every log as its anchor.
    const out = await w.verify();
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ ok: true, findings: [] });
    // Generous: a loaded 2-core runner (the emulators share one event loop with the handler) needs minutes.
  }, 300_000);
});
