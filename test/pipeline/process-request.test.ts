import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import {
  processRequest,
  type PipelineConfig,
  type PipelinePorts,
  type ProcessOutcome,
} from '../../core/pipeline/process-request.js';
import type { DeliveryJob } from '../../core/pipeline/delivery-job.js';
import { handleBatch } from '../../core/pipeline/batch.js';
import { readHandoffMessage } from '../../core/pipeline/handoff-message.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { readIntakeRequest } from '../../core/admission/intake.js';
import { testPipelineConfig } from './pipeline-config-fixture.js';
import { owed, recordedAt } from './memory-pipeline-fixture.js';

const enc = new TextEncoder();
const ex = (p: string) => new Uint8Array(readFileSync(new URL(`../../examples/${p}`, import.meta.url)));
const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function world(overrides: Partial<PipelineConfig> = {}) {
  const packs = new Map<string, Uint8Array>();
  const aliases = new Map<string, string>();
  const publishBytes = (b: Uint8Array) => {
    const d = hex(b);
    packs.set(d, b);
    return d;
  };
  const publish = (file: string) => {
    const b = ex(file);
    const d = hex(b);
    packs.set(d, b);
    const plain = JSON.parse(new TextDecoder().decode(b));
    aliases.set(`${plain.id}@${plain.version}`, d);
    return d;
  };
  const store = new MemoryLedgerStore();
  const archived = new Map<string, Uint8Array>();
  const signer = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(7)));
  const config = testPipelineConfig(['t-0', 't-1'], overrides);
  const ports: PipelinePorts = {
    packs: cachedPackSource({
      getPack: async (d) => packs.get(d) ?? null,
      resolveAlias: async (a) => aliases.get(a) ?? null,
    }),
    archive: { put: async (b) => void archived.set(hex(b), b) },
    ledger: ledgerWriter({ store, signer, logIds: config.logIds, now: () => '2026-12-02T14:00:00Z' }).forLog('t-0'),
  };
  /** The handoffs a recorded outcome's entry owes, as the delivery stage sends them (from the entry alone). */
  const handoffsOf = async (o: ProcessOutcome) => {
    if (o.status !== 'recorded') throw new Error(`not recorded: ${o.status}`);
    const owes = await owed(await recordedAt(store, o.logId, o.seq), ports.packs);
    return owes.handoffs.map((h) => ({ queue: h.queue, id: h.handoffId, body: h.body }));
  };
  return { publish, publishBytes, store, archived, config, ports, handoffsOf };
}

const req = (id: string, pack: string, facts: string, extra = '') =>
  enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"${pack}","facts":${facts}${extra}}`);

async function entries(store: MemoryLedgerStore) {
  const out = [];
  for (const log of await store.listLogs()) for await (const e of store.readEntries(log, 0)) out.push(e);
  return out;
}

describe('processing one request', () => {
  it('records an outcome disposition with digests of the exact request, facts and evidence bytes', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const facts = ' {"vendor":{"riskScore":"12.5","sanctioned":false}} ';
    const bytes = req('v-1', `sha256:${digest}`, facts, ',"evidence":{"tax-certificate":"present"}');
    const o = await processRequest(bytes, w.config, w.ports);
    expect(o.status === 'recorded' && o.kind).toBe('disposition');
    const [stored] = await entries(w.store);
    const parsed = parseStoredEntry(stored!.body);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok || parsed.value.entry.kind !== 'disposition') return;
    const e = parsed.value.entry;
    expect(e.disposition).toMatchObject({ kind: 'outcome', outcomeId: 'onboard' });
    expect(e.requestDigest).toBe(hex(bytes));
    expect(e.factsDigest).toBe(hex(enc.encode(facts.trim())));
    expect(e.evidenceDigest).toBe(hex(enc.encode('{"tax-certificate":"present"}')));
    expect(e.pack).toEqual({ id: 'https://packs.example.org/procurement/vendor-onboarding', version: '2.1.0', digest });
    expect(e.workBudget).toBe(100_000);
    expect(w.archived.get(hex(bytes))).toEqual(bytes);
    expect(await w.handoffsOf(o)).toEqual([]);
  });

  it('resolves an alias at intake and records the digest; the entry owes the target-only handoff to the target queue', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const o = await processRequest(
      req(
        'v-2',
        'https://packs.example.org/procurement/vendor-onboarding@2.1.0',
        '{"vendor":{"riskScore":"45","sanctioned":false}}',
        ',"evidence":{"tax-certificate":"present"}',
      ),
      w.config,
      w.ports,
    );
    expect(o.status === 'recorded' && o.packDigest).toBe(digest);
    const sent = await w.handoffsOf(o);
    expect(sent.map((s) => s.queue)).toEqual(['q-vendor']);
    const m = readHandoffMessage(enc.encode(sent[0]!.body));
    expect(m.ok && [m.value.shape, m.value.target?.name, m.value.packDigest]).toEqual([
      'target',
      'Vendor Risk',
      digest,
    ]);
  });

  it('owes routed handoffs in declaration order with duplicate targets kept', async () => {
    const w = world();
    const digest = w.publish('data-request-intake-triage.json');
    const facts = new TextDecoder().decode(ex('requests/triage-complete-appropriate.facts.json'));
    const evidence = new TextDecoder().decode(ex('requests/triage-instance-7b.evidence.json'));
    const o = await processRequest(
      req('t-7b', `sha256:${digest}`, facts, `,"evidence":${evidence}`),
      w.config,
      w.ports,
    );
    const sent = await w.handoffsOf(o);
    expect(sent.map((s) => s.queue)).toEqual(['q-steward', 'q-oversight', 'q-intake']);
    expect(new Set(sent.map((s) => s.id)).size).toBe(3);
  });

  it('owes a direct escalation without an escalation object to the unrouted queue', async () => {
    const w = world();
    const digest = w.publish('direct-exception-no-escalation.json');
    const o = await processRequest(
      req('d-1', `sha256:${digest}`, '{"refund":{"amount":"20.00","fraudFlag":true}}'),
      w.config,
      w.ports,
    );
    const sent = await w.handoffsOf(o);
    expect(sent.map((s) => s.queue)).toEqual(['q-unrouted']);
    const m = readHandoffMessage(enc.encode(sent[0]!.body));
    expect(m.ok && [m.value.shape, m.value.destination]).toEqual(['no-destination', 'no-destination']);
  });

  it('records an unknown pack digest, an unknown alias and an out-of-range budget as admission refusals', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const codes = [];
    for (const [id, bytes] of [
      ['u-1', req('u-1', `sha256:${'0'.repeat(64)}`, '{}')],
      ['u-2', req('u-2', 'nope@1', '{}')],
      ['u-3', req('u-3', `sha256:${digest}`, '{}', ',"workBudget":2000000')],
    ] as const) {
      const o = await processRequest(bytes, w.config, w.ports);
      codes.push(o.status === 'recorded' ? `${id}:${o.kind}:${o.refusalCode}` : o.code);
    }
    expect(codes).toEqual([
      'u-1:admission-refusal:unknown-pack-digest',
      'u-2:admission-refusal:unknown-pack-alias',
      'u-3:admission-refusal:work-budget-out-of-range',
    ]);
  });

  it('admits a work budget equal to the deployment maximum and refuses one unit more', async () => {
    const w = world({ maxWorkBudget: 5_000 });
    const digest = w.publish('vendor-onboarding-target.json');
    const facts = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
    const at = await processRequest(req('max-1', `sha256:${digest}`, facts, ',"workBudget":5000'), w.config, w.ports);
    expect(at.status === 'recorded' && at.kind).toBe('disposition');
    const over = await processRequest(req('max-2', `sha256:${digest}`, facts, ',"workBudget":5001'), w.config, w.ports);
    expect(over.status === 'recorded' && [over.kind, over.refusalCode]).toEqual([
      'admission-refusal',
      'work-budget-out-of-range',
    ]);
    const none = await processRequest(req('max-3', `sha256:${digest}`, facts, ',"workBudget":0'), w.config, w.ports);
    expect(none.status === 'recorded' && none.refusalCode).toBe('work-budget-out-of-range');
  });

  it('refuses before evaluating when the worst-case entry could not fit one ledger item', async () => {
    // Two route targets with 210,000-byte display names: any requested handoff would echo both in the disposition.
    const w = world();
    const pack = JSON.parse(new TextDecoder().decode(ex('routes-all-filtered.json')));
    pack.escalation.routes.forEach(
      (r: { target: { name: string } }, i: number) => (r.target.name = `${i}`.repeat(210_000)),
    );
    const digest = w.publishBytes(enc.encode(JSON.stringify(pack)));
    const o = await processRequest(req('fit-1', `sha256:${digest}`, '{}'), w.config, w.ports);
    expect(o.status === 'recorded' && [o.kind, o.refusalCode, o.work]).toEqual([
      'admission-refusal',
      'entry-would-not-fit',
      0,
    ]);
  });

  it('records an over-budget evaluation as a resource-exhaustion evaluation error', async () => {
    const w = world();
    const digest = w.publish('data-request-intake-triage.json');
    const facts = new TextDecoder().decode(ex('requests/triage-complete-appropriate.facts.json'));
    const o = await processRequest(req('b-1', `sha256:${digest}`, facts, ',"workBudget":10'), w.config, w.ports);
    expect(o.status === 'recorded' && [o.kind, o.errorClass]).toEqual(['evaluation-error', 'resource-exhaustion']);
  });

  it('records a malformed request with a readable id as a refusal and dead-letters one without a usable id', async () => {
    const w = world();
    const refused = await processRequest(
      enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"m-1","pack":"x"}`),
      w.config,
      w.ports,
    );
    expect(refused.status === 'recorded' && refused.refusalCode).toBe('request-malformed');
    const dead = await processRequest(enc.encode('{"requestId": 5}'), w.config, w.ports);
    expect(dead.status === 'dead-letter' && dead.code).toBe('request-format-unsupported');
    expect((await entries(w.store)).length).toBe(1);
  });

  it('caps a refusal message at 1,024 UTF-8 bytes, cut between characters and marked with "..."', async () => {
    const w = world();
    // An unknown member's name is quoted in the reader's message: 800 two-byte characters make it over 1,600 bytes.
    const bytes = req('cap-1', `sha256:${'b'.repeat(64)}`, '{}', `,"${'é'.repeat(800)}":1`);
    const read = readIntakeRequest(bytes);
    const full = read.ok ? '' : read.error.message;
    expect(enc.encode(full).length).toBeGreaterThan(1600);
    const o = await processRequest(bytes, w.config, w.ports);
    expect(o.status === 'recorded' && o.refusalCode).toBe('request-malformed');
    const [stored] = await entries(w.store);
    const p = parseStoredEntry(stored!.body);
    const message = p.ok && p.value.entry.kind === 'admission-refusal' ? p.value.entry.refusal.message : '';
    // The longest whole-character prefix within 1,021 bytes, then the three-byte marker.
    const kept = message.slice(0, -3);
    expect(message.endsWith('...') && full.startsWith(kept)).toBe(true);
    expect(enc.encode(kept).length).toBeLessThanOrEqual(1021);
    expect(enc.encode(full.slice(0, kept.length + 1)).length).toBeGreaterThan(1021);
  });

  it('produces one entry for three deliveries, each answered with it, so its handoff ids are the same each time', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const bytes = req('dup-1', `sha256:${digest}`, '{"vendor":{"riskScore":"45","sanctioned":false}}');
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push(await processRequest(bytes, w.config, w.ports));
    expect(outcomes.map((o) => o.status === 'recorded' && o.created)).toEqual([true, false, false]);
    expect((await entries(w.store)).length).toBe(1);
    const ids = await Promise.all(outcomes.map(async (o) => (await w.handoffsOf(o)).map((h) => h.id)));
    expect(ids[0]).toHaveLength(1);
    expect(ids).toEqual([ids[0], ids[0], ids[0]]);
  });

  it('names the entry again after a crash between the ledger write and the delivery job, so its handoffs still go out', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const body = new TextDecoder().decode(
      req('crash-1', `sha256:${digest}`, '{"vendor":{"riskScore":"45","sanctioned":false}}'),
    );
    const jobs: DeliveryJob[] = [];
    let sendFails = true;
    const run = () =>
      handleBatch([{ messageId: 'a', body, groupId: 't-0' }], {
        process: (b) => processRequest(b, w.config, w.ports),
        deadLetter: async () => undefined,
        jobs: {
          send: async (list) => {
            if (sendFails) throw new Error('simulated crash after the ledger write');
            jobs.push(...list);
            return { failed: [] };
          },
        },
      });
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }] });
    expect((await entries(w.store)).length).toBe(1);
    expect(jobs).toEqual([]);
    sendFails = false;
    expect(await run()).toEqual({ batchItemFailures: [] });
    expect(jobs).toEqual([{ logId: 't-0', entries: [{ seq: 0, requestId: 'crash-1' }] }]);
    expect((await entries(w.store)).length).toBe(1);
  });

  it('dead-letters a second request that reuses an id with other bytes, leaving the first entry alone', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    await processRequest(req('same', `sha256:${digest}`, '{}'), w.config, w.ports);
    const o = await processRequest(req('same', `sha256:${digest}`, '{"x":1}'), w.config, w.ports);
    expect(o.status === 'dead-letter' && o.code).toBe('request-id-reused');
    expect((await entries(w.store)).length).toBe(1);
  });
});

describe('processing a batch', () => {
  it('fails only the record whose processing threw and dead-letters the unidentified one', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const dead: [string, string][] = [];
    const records = [
      {
        messageId: 'a',
        body: new TextDecoder().decode(
          req(
            'ok-1',
            `sha256:${digest}`,
            '{"vendor":{"riskScore":"12.5","sanctioned":false}}',
            ',"evidence":{"tax-certificate":"present"}',
          ),
        ),
      },
      { messageId: 'b', body: 'not json' },
      {
        messageId: 'c',
        body: new TextDecoder().decode(
          req('ok-2', `sha256:${digest}`, '{"vendor":{"riskScore":"45","sanctioned":false}}'),
        ),
      },
    ];
    // Record c's archive put fails: an infrastructure fault, so its processing throws.
    const ports: PipelinePorts = {
      ...w.ports,
      archive: {
        put: async (b) => {
          if (new TextDecoder().decode(b).includes('"ok-2"')) throw new Error('simulated archive fault');
          return w.ports.archive.put(b);
        },
      },
    };
    const res = await handleBatch(records, {
      process: (b) => processRequest(b, w.config, ports),
      deadLetter: async (r, o) => void dead.push([r.messageId, o.code]),
      concurrency: 1,
      jobs: { send: async () => ({ failed: [] }) },
    });
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'c' }]);
    // The reason travels with the dead letter (the DocketReason attribute), so an operator can tell why.
    expect(dead).toEqual([['b', 'request-not-json']]);
  });
});

describe('a request on its log’s writer starts its claim and retention before its decision (ADR 0402)', () => {
  const ticks = async (n = 20) => {
    for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
  };
  const signer = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(9)));
  const onLog = (w: ReturnType<typeof world>, logId: string, packs = w.ports.packs): PipelinePorts => ({
    ...w.ports,
    packs,
    ledger: ledgerWriter({ store: w.store, signer, logIds: w.config.logIds, now: () => '2026-12-04T14:00:00Z' }).forLog(
      logId,
    ),
  });

  it('sends the claim and the archive put before the pack is loaded, and writes the entry once the decision is made', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const packs = { ...w.ports.packs, load: async (d: string) => (await gate, w.ports.packs.load(d)) };
    const bytes = req('early-1', `sha256:${digest}`, '{"vendor":{"riskScore":"45","sanctioned":false}}');
    const out = processRequest(bytes, w.config, onLog(w, 't-1', packs));
    await ticks();
    expect([...w.archived.keys()]).toEqual([hex(bytes)]);
    expect(w.store.markers().claims.map((c) => [c.requestId, c.logId, c.requestDigest])).toEqual([
      ['early-1', 't-1', hex(bytes)],
    ]);
    expect(await entries(w.store)).toEqual([]);
    open();
    const o = await out;
    expect(o.status === 'recorded' && [o.created, o.logId, o.kind]).toEqual([true, 't-1', 'disposition']);
  });

  it('fails a record whose pack read faults without holding up its log’s other records, and records it once on redelivery', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    let faults = 1;
    const packs = {
      ...w.ports.packs,
      load: async (d: string) => {
        if (faults > 0) {
          faults -= 1;
          throw new Error('pack registry unavailable');
        }
        return w.ports.packs.load(d);
      },
    };
    const ports = onLog(w, 't-0', packs);
    const body = (id: string) =>
      new TextDecoder().decode(req(id, `sha256:${digest}`, '{"vendor":{"riskScore":"45","sanctioned":false}}'));
    const records = [
      { messageId: 'a', body: body('faulted'), groupId: 't-0' },
      { messageId: 'b', body: body('fine'), groupId: 't-0' },
    ];
    const res = await handleBatch(records, {
      process: (b) => processRequest(b, w.config, ports),
      deadLetter: async () => undefined,
      jobs: { send: async () => ({ failed: [] }) },
    });
    // AWS's FIFO rule reports b too (after a in its group), though it was written: its redelivery is a duplicate.
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'a' }, { itemIdentifier: 'b' }]);
    expect((await entries(w.store)).map((e) => e.projection.requestId)).toEqual(['fine']);
    const again = await processRequest(enc.encode(records[0]!.body), w.config, ports);
    expect(again.status === 'recorded' && again.created).toBe(true);
    expect((await entries(w.store)).map((e) => e.projection.requestId)).toEqual(['fine', 'faulted']);
  });

  it('does not retain a request over the archive’s limit, and records it as request-too-large under its claim', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const big = req('too-big', `sha256:${digest}`, `{"note":"${'x'.repeat(400_000)}"}`);
    const o = await processRequest(big, w.config, onLog(w, 't-0'));
    expect(o.status === 'recorded' && o.refusalCode).toBe('request-too-large');
    expect(w.archived.size).toBe(0);
    expect((await w.store.readClaim('too-big'))?.requestDigest).toBe(hex(big));
  });
});
