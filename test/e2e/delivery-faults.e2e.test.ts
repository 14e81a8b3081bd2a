/**
 * Delivery faults over the local stack (issue 4 item 8): duplicates, a crash after the ledger write, a poison
 * message. A short visibility timeout (2 s) makes redelivery quick; handoff sends are wrapped to inject faults.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReceiveMessageCommand, DeleteMessageCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { sendMessage } from '../../adapters/sqs.js';
import { parseStoredEntry } from '../../core/ledger/entry.js';
import { verifyEntrySignature } from '../../core/ledger/entry.js';
import { readHandoffMessage, type HandoffMessage } from '../../core/pipeline/handoff-message.js';
import { REQUEST_FORMAT } from '../../core/pipeline/request-format.js';
import type { SignedEntry } from '../../core/ledger/entry-types.js';
import type { HandoffSender } from '../../core/pipeline/ports.js';
import { startE2e, type E2eWorld } from './harness.js';

const enc = new TextEncoder();
const ex = (p: string) => readFileSync(new URL(`../../examples/${p}`, import.meta.url), 'utf8');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Request ids whose first handoff send "crashes" the function (after the ledger write). */
const crashOnce = new Set<string>();
/** Request ids whose every handoff send fails: a poison message. */
const alwaysFail = new Set<string>();
const faults = (s: HandoffSender): HandoffSender => ({
  async send(queue, id, body, route) {
    const requestId = (JSON.parse(body) as HandoffMessage).requestId;
    if (alwaysFail.has(requestId)) throw new Error('injected: poison');
    if (crashOnce.delete(requestId)) throw new Error('injected: died after the ledger write');
    return s.send(queue, id, body, route);
  },
});

let w: E2eWorld;
const digests: Record<string, string> = {};

beforeAll(async () => {
  w = await startE2e({ wrapSender: faults, visibilityTimeout: 2, config: { maximumConcurrency: 2 } });
  for (const [name, file] of Object.entries({ triage: 'data-request-intake-triage.json', vendor: 'vendor-onboarding-target.json', refund: 'direct-exception-no-escalation.json', leave: 'routes-all-filtered.json', incident: 'extended-profile-fanout.json', trial: 'requires-extension.json' })) {
    digests[name] = (await w.registry.putPack(enc.encode(ex(file)))).digest;
  }
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

function request(id: string, pack: string, facts: string, evidence?: string, extra = ''): string {
  return `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"sha256:${digests[pack]}","facts":${facts}${evidence ? `,"evidence":${evidence}` : ''}${extra}}`;
}

async function submit(body: string): Promise<void> {
  await sendMessage(w.sqs, w.queueUrl('intake'), { body });
}

async function entryOf(requestId: string, timeoutMs = 20_000): Promise<{ entry: SignedEntry; entryHash: string; logId: string; seq: number }> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const p = await w.store.readPosition(requestId);
    if (p) {
      for await (const e of w.store.readEntries(p.logId, p.seq, p.seq)) {
        const parsed = parseStoredEntry(e.body);
        if (!parsed.ok) throw new Error(`stored entry unreadable: ${parsed.error.detail}`);
        return { ...parsed.value, logId: p.logId, seq: p.seq };
      }
    }
    await sleep(100);
  }
  throw new Error(`no entry for ${requestId} within ${timeoutMs} ms`);
}

/** Receives every message currently on a queue (deleting them), parsed as handoffs. */
async function drain(url: string, expectAtLeast = 0, timeoutMs = 10_000): Promise<{ body: string; attributes: Record<string, string> }[]> {
  const out: { body: string; attributes: Record<string, string> }[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await w.sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: out.length >= expectAtLeast ? 0 : 1, MessageAttributeNames: ['All'] }));
    for (const m of r.Messages ?? []) {
      out.push({ body: m.Body ?? '', attributes: Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, v.StringValue ?? ''])) });
      await w.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    }
    if ((r.Messages ?? []).length === 0 && (out.length >= expectAtLeast || Date.now() > until)) return out;
  }
}

const handoffs = (msgs: { body: string }[]): HandoffMessage[] =>
  msgs.map((m) => {
    const r = readHandoffMessage(enc.encode(m.body));
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  });

describe('delivery faults over the local stack', () => {
  it('keeps one entry and one handoff id when the same message is delivered three times', async () => {
    const body = request('thrice', 'vendor', ex('requests/vendor-no-match.facts.json'), ex('requests/vendor-certificate.evidence.json'));
    for (let i = 0; i < 3; i++) await submit(body);
    const first = await entryOf('thrice');
    const msgs = handoffs(await drain(w.queueUrl('route-vendor-risk'), 3)).filter((m) => m.requestId === 'thrice');
    // At least once per delivery, always the same handoff id: consumers dedupe on it.
    expect(msgs.length).toBeGreaterThanOrEqual(3);
    expect(new Set(msgs.map((m) => m.handoffId)).size).toBe(1);
    let count = 0;
    for await (const e of w.store.readEntries(first.logId, 0)) if (e.projection.requestId === 'thrice') count += 1;
    expect(count).toBe(1);
  });

  it('delivers the handoff once per handoff id after the function dies between the ledger write and the send', async () => {
    crashOnce.add('crash-after-write');
    await submit(request('crash-after-write', 'vendor', ex('requests/vendor-no-match.facts.json'), ex('requests/vendor-certificate.evidence.json')));
    const e = await entryOf('crash-after-write');
    const msgs = handoffs(await drain(w.queueUrl('route-vendor-risk'), 1, 15_000)).filter((m) => m.requestId === 'crash-after-write');
    expect(crashOnce.has('crash-after-write')).toBe(false);
    expect(new Set(msgs.map((m) => `${m.handoffId} ${m.ledger.entryHash}`))).toEqual(new Set([`${msgs[0]?.handoffId} ${e.entryHash}`]));
    expect(msgs.length).toBeGreaterThanOrEqual(1);
  });

  it('moves a message that fails every time to the DLQ after maxReceiveCount', async () => {
    alwaysFail.add('poison');
    await submit(request('poison', 'vendor', ex('requests/vendor-no-match.facts.json'), ex('requests/vendor-certificate.evidence.json')));
    const dead = await drain(w.queueUrl('intake-dlq'), 1, 30_000);
    expect(dead.map((m) => (JSON.parse(m.body) as { requestId: string }).requestId)).toEqual(['poison']);
    alwaysFail.delete('poison');
  }, 40_000);
});

