import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
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
import { deliverJob } from '../../core/pipeline/deliver-job.js';
import type { OutboxPorts } from '../../core/pipeline/outbox.js';
import { TEST_ROUTES } from './pipeline-config-fixture.js';
import {
  RESULT_MAX_BYTES,
  notificationAttributes,
  readResultNotification,
  resultNotificationFor,
  type ResultMessage,
} from '../../core/pipeline/result-notification.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { requestIdFilterPolicies } from '../../core/pipeline/result-filter.js';
import type { EntryDraft } from '../../core/pipeline/ports.js';
import type { SignedEntry } from '../../core/ledger/entries/entry-types.js';

const enc = new TextEncoder();
const ex = (p: string) => new Uint8Array(readFileSync(new URL(`../../examples/${p}`, import.meta.url)));
const hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const signer = signerFromKeyPair(keyPairFromSeed(new Uint8Array(32).fill(9)));

function world() {
  const packs = new Map<string, Uint8Array>();
  const store = new MemoryLedgerStore();
  const published: ResultMessage[] = [];
  const sent: string[] = [];
  let failPublishes = 0;
  const config: PipelineConfig = {
    logIds: ['r-0'],
    supportedExtensions: [],
    defaultWorkBudget: 100_000,
    maxWorkBudget: 1_000_000,
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: 'b'.repeat(64) },
  };
  const ledger = ledgerWriter({ store, signer, logIds: config.logIds, now: () => '2026-12-03T13:00:00Z' }).forLog(
    'r-0',
  );
  const ports: PipelinePorts = {
    packs: cachedPackSource({ getPack: async (d) => packs.get(d) ?? null, resolveAlias: async () => null }),
    archive: { put: async () => undefined },
    ledger,
  };
  const outbox: OutboxPorts = {
    handoffs: { sendBatch: async (_q, list) => (sent.push(...list.map((h) => h.handoffId)), { failed: [] }) },
    results: {
      publishBatch: async (messages) => {
        if (failPublishes > 0) {
          failPublishes -= 1;
          throw new Error('simulated SNS outage after the ledger write');
        }
        published.push(...messages);
        return { failed: [] };
      },
    },
  };
  /** The delivery stage (core/pipeline/deliver-job.ts) given a job naming a recorded request's entry. */
  const deliver = async (o: ProcessOutcome) => {
    if (o.status !== 'recorded') throw new Error(`not recorded: ${o.status}`);
    const job = { logId: o.logId, entries: [{ seq: o.seq, requestId: o.requestId }] };
    const r = await deliverJob(job, TEST_ROUTES, { store, packs: ports.packs, outbox });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  const publish = (file: string): string => {
    const b = ex(file);
    packs.set(hex(b), b);
    return hex(b);
  };
  return {
    store,
    published,
    sent,
    config,
    ports,
    ledger,
    deliver,
    publish,
    failNextPublishes: (n: number) => (failPublishes = n),
  };
}

const req = (id: string, pack: string, facts: string, extra = '') =>
  enc.encode(`{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"${pack}","facts":${facts}${extra}}`);
const LOW_RISK = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
const ESCALATE = '{"vendor":{"riskScore":"45","sanctioned":false}}';

async function onlyEntry(store: MemoryLedgerStore) {
  const out = [];
  for (const log of await store.listLogs()) for await (const e of store.readEntries(log, 0)) out.push(e);
  expect(out).toHaveLength(1);
  const p = parseStoredEntry(out[0]!.body);
  if (!p.ok) throw new Error(p.error.detail);
  return { ...p.value, body: out[0]!.body };
}

describe('result notifications from the delivery stage', () => {
  it('publishes one docket.result/2 notification per appended entry carrying the exact entry bytes, with its filter attributes', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const o = await processRequest(
      req('n-1', `sha256:${digest}`, LOW_RISK, ',"evidence":{"tax-certificate":"present"},"correlation":{"t":"x"}'),
      w.config,
      w.ports,
    );
    expect(w.published).toHaveLength(0); // the evaluate side publishes nothing
    const delivered = await w.deliver(o);
    const e = await onlyEntry(w.store);
    expect(w.published).toHaveLength(1);
    const m = w.published[0]!;
    expect(delivered.fannedOut[0]!.notification.id).toBe(e.entryHash);
    expect(m.id).toBe(e.entryHash);
    const read = readResultNotification(enc.encode(m.body));
    if (!read.ok) throw new Error(read.error.message);
    const n = read.value;
    expect([n.notificationId, n.ledger, n.entry?.body]).toEqual([
      e.entryHash,
      { logId: 'r-0', seq: 0, entryHash: e.entryHash },
      e.body,
    ]);
    expect(JSON.parse(m.body)).toEqual({ format: 'docket.result/2', notificationId: e.entryHash, entry: e.body });
    expect(m.attributes).toEqual({
      kind: 'disposition',
      dispositionKind: 'outcome',
      outcomeId: 'onboard',
      packId: 'https://packs.example.org/procurement/vendor-onboarding',
      packDigest: `sha256:${digest}`,
      logId: 'r-0',
      requestId: 'n-1',
    });
  });

  it('publishes evaluation errors and admission refusals with their class or code as attributes', async () => {
    const w = world();
    const digest = w.publish('data-request-intake-triage.json');
    const facts = new TextDecoder().decode(ex('requests/triage-complete-appropriate.facts.json'));
    await w.deliver(
      await processRequest(req('n-err', `sha256:${digest}`, facts, ',"workBudget":10'), w.config, w.ports),
    );
    await w.deliver(await processRequest(req('n-ref', `sha256:${'0'.repeat(64)}`, '{}'), w.config, w.ports));
    const [errMsg, refMsg] = w.published;
    expect(errMsg!.attributes).toMatchObject({ kind: 'evaluation-error', errorClass: 'resource-exhaustion' });
    expect(errMsg!.attributes.dispositionKind).toBeUndefined();
    expect(refMsg!.attributes).toEqual({
      kind: 'admission-refusal',
      refusalCode: 'unknown-pack-digest',
      packDigest: `sha256:${'0'.repeat(64)}`,
      logId: 'r-0',
      requestId: 'n-ref',
    });
    const er = readResultNotification(enc.encode(errMsg!.body));
    const ee = er.ok ? er.value.entry?.entry : undefined;
    expect(ee?.kind === 'evaluation-error' && ee.error.class).toBe('resource-exhaustion');
    const rr = readResultNotification(enc.encode(refMsg!.body));
    const re = rr.ok ? rr.value.entry?.entry : undefined;
    expect(re?.kind === 'admission-refusal' && re.refusal.code).toBe('unknown-pack-digest');
  });

  it('re-publishes the same notification id when a request is delivered again', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const bytes = req('n-dup', `sha256:${digest}`, ESCALATE);
    for (let i = 0; i < 3; i++) await w.deliver(await processRequest(bytes, w.config, w.ports));
    expect(w.published.map((m) => m.id)).toEqual(Array(3).fill(w.published[0]!.id));
    expect(new Set(w.published.map((m) => m.body)).size).toBe(1);
  });

  it('a failed publish fails the delivery, keeps the ledger write, and the next delivery sends the handoffs and the notification', async () => {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    const bytes = req('n-fail', `sha256:${digest}`, ESCALATE);
    w.failNextPublishes(1);
    const first = await processRequest(bytes, w.config, w.ports);
    const failed = (await w.deliver(first)).undelivered;
    expect([...failed.values()].map((f) => f.reasons)).toEqual([[expect.stringMatching(/SNS outage/)]]);
    const e = await onlyEntry(w.store);
    expect(w.sent).toHaveLength(1); // the handoff went out before the publish failed
    expect(w.published).toHaveLength(0);
    const again = await processRequest(bytes, w.config, w.ports);
    expect(again.status === 'recorded' && again.created).toBe(false);
    expect((await w.deliver(again)).undelivered.size).toBe(0);
    expect(w.sent).toEqual([w.sent[0], w.sent[0]]); // same handoff id re-sent
    expect(w.published.map((m) => m.id)).toEqual([e.entryHash]);
    await onlyEntry(w.store);
  });
});

describe('the docket.result/2 reader', () => {
  async function sample() {
    const w = world();
    const digest = w.publish('vendor-onboarding-target.json');
    await w.deliver(await processRequest(req('r-1', `sha256:${digest}`, ESCALATE), w.config, w.ports));
    return { body: w.published[0]!.body, plain: JSON.parse(w.published[0]!.body) as Record<string, unknown> };
  }
  const read = (o: unknown) => readResultNotification(enc.encode(canonicalize(o) as string));

  it('refuses bytes that are not the RFC 8785 form, and another format version as unsupported', async () => {
    const { body, plain } = await sample();
    expect(readResultNotification(enc.encode(`${body} `)).ok).toBe(false);
    expect(readResultNotification(enc.encode(JSON.stringify(plain, null, 1))).ok).toBe(false);
    for (const format of ['docket.result/1', 'docket.result/3']) {
      const other = read({ ...plain, format });
      expect(!other.ok && other.error.code).toBe('unsupported-format');
    }
    const v1 = read({ ...plain, format: 'docket.result/1' });
    expect(!v1.ok && v1.error.message).toMatch(/no signed entry/);
    const dup = readResultNotification(enc.encode(body.replace('{', '{"format":"docket.result/2",')));
    expect(!dup.ok && dup.error.code).toBe('notification-malformed');
  });

  it('refuses unknown members, a notification id that is not the hash of the carried entry, and edited entry bytes', async () => {
    const { plain } = await sample();
    const entry = plain.entry as string;
    const edited = entry.replace('"requestId":"r-1"', '"requestId":"r-2"');
    expect(edited).not.toBe(entry);
    const refusals: [unknown, string][] = [
      [{ ...plain, extra: 1 }, 'notification-malformed'],
      [{ ...plain, notificationId: 'f'.repeat(64) }, 'notification-malformed'],
      [{ ...plain, entry: '' }, 'notification-malformed'],
      [{ ...plain, entryOmitted: true }, 'notification-malformed'],
      [{ ...plain, entry: edited }, 'notification-malformed'],
      [{ ...plain, entry: `${entry} ` }, 'entry-malformed'],
      [{ ...plain, entry: '{"format":"docket.ledger-entry/1"}' }, 'entry-malformed'],
    ];
    for (const [r, code] of refusals) {
      const out = read(r);
      expect(!out.ok && out.error.code, JSON.stringify(r).slice(0, 200)).toBe(code);
    }
    expect(read(plain).ok).toBe(true);
  });

  it('reads an omitted entry as its coordinates only, whose entry hash must be the notification id', () => {
    const ledger = { logId: 'l-0', seq: 3, entryHash: 'a'.repeat(64) };
    const omitted = { format: 'docket.result/2', notificationId: 'a'.repeat(64), entryOmitted: true, ledger };
    const r = read(omitted);
    expect(r.ok && [r.value.entry, r.value.ledger]).toEqual([null, ledger]);
    expect(read({ ...omitted, notificationId: 'b'.repeat(64) }).ok).toBe(false);
    expect(read({ ...omitted, entryOmitted: false }).ok).toBe(false);
    expect(read({ ...omitted, ledger: { ...ledger, seq: -1 } }).ok).toBe(false);
  });
});

describe('notification size and attributes', () => {
  it('leaves out an entry too large for one SNS message, keeping its coordinates and its filter attributes', async () => {
    const w = world();
    const name = (c: string) => c.repeat(140_000);
    const disposition = {
      kind: 'unresolved' as const,
      reasons: ['no-match' as const],
      handoff: {
        state: 'requested' as const,
        triggeredBy: ['no-match' as const],
        routes: [
          { kind: 'queue' as const, name: name('a') },
          { kind: 'queue' as const, name: name('b') },
        ],
      },
    };
    const draft: EntryDraft = {
      kind: 'disposition',
      requestId: 'big-1',
      requestDigest: 'c'.repeat(64),
      correlation: null,
      supportedExtensions: [],
      evaluator: w.config.evaluator,
      pack: { digest: 'd'.repeat(64), id: 'p', version: '1' },
      specVersion: '0.3.0',
      factsDigest: 'e'.repeat(64),
      evidenceDigest: null,
      workBudget: 100,
      work: 1,
      disposition,
      dispositionDigest: hex(canonicalize(disposition) as string),
    };
    const appended = await w.ledger.append(draft);
    if (appended.status === 'conflict') throw new Error('conflict');
    const m = resultNotificationFor(appended.recorded);
    expect(Buffer.byteLength(m.body)).toBeLessThanOrEqual(RESULT_MAX_BYTES);
    const n = readResultNotification(enc.encode(m.body));
    if (!n.ok) throw new Error(n.error.message);
    expect([n.value.entry, n.value.ledger]).toEqual([
      null,
      { logId: appended.recorded.logId, seq: appended.recorded.seq, entryHash: appended.recorded.entryHash },
    ]);
    expect(m.attributes.dispositionKind).toBe('unresolved');
  });

  it('publishes no attribute that SNS would refuse or a filter could mistake: empty, over 256 bytes, control characters, lone surrogates', () => {
    const base = {
      kind: 'admission-refusal' as const,
      logId: 'l-0',
      requestId: 'ok-1',
      refusal: { code: 'unknown-pack-alias' as const, message: '' },
    } as unknown as SignedEntry;
    const withPack = (id: string) =>
      notificationAttributes({ ...base, pack: { digest: 'd'.repeat(64), id } } as SignedEntry).packId;
    expect(withPack('x'.repeat(256))).toBe('x'.repeat(256));
    expect(withPack('x'.repeat(257))).toBeUndefined();
    expect(withPack('é'.repeat(129))).toBeUndefined(); // 258 bytes
    expect(withPack('a\u0000b')).toBeUndefined();
    expect(withPack('a\nb')).toBeUndefined();
    expect(withPack('a\ud800b')).toBeUndefined();
    expect(withPack('')).toBeUndefined();
    const attrs = notificationAttributes({ ...base, pack: null } as SignedEntry);
    expect(Object.values(attrs).every((v) => typeof v === 'string' && v !== '')).toBe(true);
    expect(Object.keys(attrs).length).toBeLessThanOrEqual(10);
  });
});

describe('schema/result-notification.schema.json', () => {
  it('accepts every notification the serializer emits, of each kind, and refuses one that both carries and omits its entry', async () => {
    const schema = JSON.parse(
      readFileSync(new URL('../../schema/result-notification.schema.json', import.meta.url), 'utf8'),
    ) as object;
    const validate = new Ajv2020.default({ strict: false, allErrors: true }).compile(schema);
    const w = world();
    const digest = w.publish('data-request-intake-triage.json');
    const facts = new TextDecoder().decode(ex('requests/triage-complete-appropriate.facts.json'));
    await w.deliver(await processRequest(req('s-1', `sha256:${digest}`, facts), w.config, w.ports));
    await w.deliver(await processRequest(req('s-2', `sha256:${digest}`, facts, ',"workBudget":10'), w.config, w.ports));
    await w.deliver(await processRequest(req('s-3', 'nope@1', '{}'), w.config, w.ports));
    expect(w.published.map((m) => JSON.parse(JSON.parse(m.body).entry).kind)).toEqual([
      'disposition',
      'evaluation-error',
      'admission-refusal',
    ]);
    for (const m of w.published) expect(validate(JSON.parse(m.body)), JSON.stringify(validate.errors)).toBe(true);
    const mixed = { ...JSON.parse(w.published[1]!.body), entryOmitted: true };
    expect(validate(mixed)).toBe(false);
  });
});

describe('filter policies for awaited request ids', () => {
  it('splits any number of ids into policies of at most 100 values, duplicates dropped, each valid JSON', () => {
    const ids = Array.from({ length: 250 }, (_, i) => `id-${i}`);
    const policies = requestIdFilterPolicies([...ids, 'id-0']);
    expect(policies.map((p) => (JSON.parse(p) as { requestId: string[] }).requestId.length)).toEqual([100, 100, 50]);
    expect(policies.flatMap((p) => (JSON.parse(p) as { requestId: string[] }).requestId)).toEqual(ids);
    expect(requestIdFilterPolicies([])).toEqual([]);
  });
});
