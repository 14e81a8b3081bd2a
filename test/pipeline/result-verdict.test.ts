/**
 * A requester proves its result (core/pipeline/result-verdict.ts, ADR 0290): a notification's entry is accepted only
 * when signed under the trust policy and recording exactly the request sent. Each forgery a publisher to the
 * results topic could write is tried, and `docket submit --wait`'s reading of the queue (cli/wait-results.ts) is
 * shown to skip them and keep waiting for the genuine one.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { MemoryLedgerStore } from '../../core/ledger/store/memory-store.js';
import { keyPairFromSeed, signerFromKeyPair } from '../../core/ledger/primitives/signature.js';
import { parseStoredEntry } from '../../core/ledger/entries/entry.js';
import { readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { buildEntry } from '../../core/ledger/entries/entry.js';
import { cachedPackSource } from '../../core/pipeline/pack-source.js';
import { ledgerWriter } from '../../core/pipeline/ledger-writer.js';
import { processRequest, type PipelineConfig, type PipelinePorts } from '../../core/pipeline/process-request.js';
import { readResultNotification, type ResultMessage } from '../../core/pipeline/result-notification.js';
import { verifyResultEntry, type SentRequest } from '../../core/pipeline/result-verdict.js';
import { verifyResultBytes } from '../../core/pipeline/result-bytes-verdict.js';
import { resultLine } from '../../core/pipeline/saved-result.js';
import { REQUEST_FORMAT } from '../../core/admission/request-format.js';
import { readRequest } from '../../core/admission/request.js';
import { trustPolicyDocument } from '../../stack/local-files.js';
import { memoryIo } from '../../cli/io.js';
import { waitForResults } from '../../cli/wait-results.js';

const enc = new TextEncoder();
const hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const keys = keyPairFromSeed(new Uint8Array(32).fill(9));
const attackerKeys = keyPairFromSeed(new Uint8Array(32).fill(66));
const BUILD = 'b'.repeat(64);
const policy = (() => {
  const text = trustPolicyDocument({
    keys,
    checkpointKey: keyPairFromSeed(new Uint8Array(32).fill(11)),
    logIds: ['r-0'],
    environment: 'test',
    table: 'docket-test-ledger',
    evaluatorBuilds: [BUILD],
  });
  const r = readTrustPolicy(enc.encode(text));
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
})();

const packBytes = new Uint8Array(
  readFileSync(new URL('../../examples/vendor-onboarding-target.json', import.meta.url)),
);
const PACK = `sha256:${hex(packBytes)}`;
const LOW_RISK = '{"vendor":{"riskScore":"12.5","sanctioned":false}}';
const requestText = (id: string, facts = LOW_RISK, pack = PACK) =>
  `{"format":"${REQUEST_FORMAT}","requestId":"${id}","pack":"${pack}","facts":${facts},"evidence":{"tax-certificate":"present"}}`;
const sent = (text: string): SentRequest => {
  const bytes = enc.encode(text);
  const r = readRequest(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return { requestId: r.value.requestId, bytes, request: r.value };
};

async function genuine(text: string): Promise<ResultMessage> {
  const published: ResultMessage[] = [];
  const config: PipelineConfig = {
    logIds: ['r-0'],
    supportedExtensions: [],
    defaultWorkBudget: 100_000,
    maxWorkBudget: 1_000_000,
    evaluator: { name: 'docket-evaluator', version: '0.1.0', buildDigest: BUILD },
    routeQueues: {},
    unroutedQueue: 'q-unrouted',
  };
  const ports: PipelinePorts = {
    packs: cachedPackSource({
      getPack: async (d) => (d === hex(packBytes) ? packBytes : null),
      resolveAlias: async () => null,
    }),
    archive: { put: async () => undefined },
    ledger: ledgerWriter({
      store: new MemoryLedgerStore(),
      signer: signerFromKeyPair(keys),
      logIds: ['r-0'],
      now: () => '2026-12-04T05:00:00Z',
    }),
    handoffs: { send: async () => undefined },
    results: { publish: async (m) => void published.push(m) },
  };
  await processRequest(enc.encode(text), config, ports);
  return published[0]!;
}

function entryOf(m: ResultMessage) {
  const r = readResultNotification(enc.encode(m.body));
  if (!r.ok || r.value.entry === null) throw new Error('expected a carried entry');
  return r.value.entry;
}

/** The attacker's edit of a genuine entry: members changed, signature kept (or re-signed with a key of its own). */
function forged(m: ResultMessage, edit: Record<string, unknown>, resignWith?: typeof attackerKeys) {
  const plain = JSON.parse(entryOf(m).body) as Record<string, unknown>;
  const { signature: _s, ...unsigned } = { ...plain, ...edit };
  const body = resignWith
    ? buildEntry(unsigned as never, signerFromKeyPair(resignWith)).body
    : (canonicalize({ ...unsigned, signature: plain.signature }) as string);
  const p = parseStoredEntry(body);
  if (!p.ok) throw new Error(p.error.detail);
  return { ...p.value, body };
}

describe('verifying a result against what was sent', () => {
  it('accepts the genuine entry of the request sent', async () => {
    const text = requestText('v-1');
    expect(verifyResultEntry(entryOf(await genuine(text)), sent(text), policy)).toEqual({ ok: true });
  });

  it('refuses each forgery with its reason: another outcome, another key, another request, other bytes', async () => {
    const text = requestText('v-2');
    const m = await genuine(text);
    const d = (JSON.parse(entryOf(m).body) as { disposition: Record<string, unknown> }).disposition;
    const reject = { ...d, outcomeId: 'reject' };
    const cases: [ReturnType<typeof forged>, SentRequest, string][] = [
      [
        forged(m, { disposition: reject, dispositionDigest: hex(canonicalize(reject) as string) }),
        sent(text),
        'signature-mismatch',
      ],
      [forged(m, { keyId: attackerKeys.keyId }, attackerKeys), sent(text), 'unknown-key'],
      [
        forged(m, { evaluator: { name: 'x', version: '1', buildDigest: 'f'.repeat(64) } }),
        sent(text),
        'signature-mismatch',
      ],
      [entryOf(m), sent(requestText('v-3')), 'request-id-mismatch'],
      [
        entryOf(m),
        sent(requestText('v-2', '{"vendor":{"riskScore":"99","sanctioned":true}}')),
        'request-digest-mismatch',
      ],
    ];
    for (const [entry, s, reason] of cases) {
      const v = verifyResultEntry(entry, s, policy);
      expect(!v.ok && v.reason, reason).toBe(reason);
    }
  });

  it('refuses an entry whose facts, evidence or pack digest is not what the request held, even signed by a trusted key', async () => {
    const text = requestText('v-4');
    const m = await genuine(text);
    const resigned = (edit: Record<string, unknown>) => forged(m, edit, keys); // a trusted key's holder gone rogue
    const e = JSON.parse(entryOf(m).body) as { pack: Record<string, unknown> };
    expect(verifyResultEntry(resigned({ factsDigest: 'f'.repeat(64) }), sent(text), policy)).toMatchObject({
      reason: 'facts-digest-mismatch',
    });
    expect(verifyResultEntry(resigned({ evidenceDigest: null }), sent(text), policy)).toEqual({ ok: true });
    expect(verifyResultEntry(resigned({ evidenceDigest: 'e'.repeat(64) }), sent(text), policy)).toMatchObject({
      reason: 'evidence-digest-mismatch',
    });
    expect(
      verifyResultEntry(resigned({ pack: { ...e.pack, digest: 'd'.repeat(64) } }), sent(text), policy),
    ).toMatchObject({ reason: 'pack-mismatch' });
  });
});

describe('verifying a result from its bytes (@docket/verify verifyResult)', () => {
  it('accepts the genuine notification and the saved submit --wait --json line, and returns the signed entry', async () => {
    const text = requestText('b-1');
    const m = await genuine(text);
    const e = entryOf(m);
    const request = { requestId: 'b-1', bytes: enc.encode(text) };
    for (const bytes of [enc.encode(m.body), enc.encode(`${resultLine(e, e.body)}\n`)]) {
      const v = verifyResultBytes(bytes, policy, { request });
      expect(v.ok && [v.result.entry.requestId, v.result.body]).toEqual(['b-1', e.body]);
    }
  });

  it('judges the entry alone without the request, and as the result of that request with it', async () => {
    const m = await genuine(requestText('b-2'));
    expect(verifyResultBytes(enc.encode(m.body), policy).ok).toBe(true);
    const another = { requestId: 'b-3', bytes: enc.encode(requestText('b-3')) };
    expect(verifyResultBytes(enc.encode(m.body), policy, { request: another })).toMatchObject({
      ok: false,
      reason: 'request-id-mismatch',
    });
  });

  it('refuses a forged notification (signature kept) as signature-mismatch and unreadable bytes as result-unreadable', async () => {
    const m = await genuine(requestText('b-4'));
    const d = (JSON.parse(entryOf(m).body) as { disposition: Record<string, unknown> }).disposition;
    const reject = { ...d, outcomeId: 'reject' };
    const f = forged(m, { disposition: reject, dispositionDigest: hex(canonicalize(reject) as string) });
    const n = canonicalize({ format: 'docket.result/2', notificationId: f.entryHash, entry: f.body }) as string;
    expect(verifyResultBytes(enc.encode(n), policy)).toMatchObject({ ok: false, reason: 'signature-mismatch' });
    for (const bad of ['', 'null', '{"entry":"x"}', m.body.slice(0, -1)])
      expect(verifyResultBytes(enc.encode(bad), policy)).toMatchObject({ ok: false, reason: 'result-unreadable' });
  });
});

describe('submit --wait reading the results queue', () => {
  it('prints only the genuine result, reports each forgery on stderr with its reason, and keeps waiting until the genuine one', async () => {
    const text = requestText('w-1');
    const m = await genuine(text);
    const other = await genuine(requestText('w-other'));
    const d = (JSON.parse(entryOf(m).body) as { disposition: Record<string, unknown> }).disposition;
    const reject = { ...d, outcomeId: 'reject' };
    const f = forged(m, { disposition: reject, dispositionDigest: hex(canonicalize(reject) as string) });
    const bodies = [
      canonicalize({ format: 'docket.result/2', notificationId: f.entryHash, entry: f.body }) as string,
      other.body, // a genuine result of another request, published to this request's filter
      JSON.stringify({ format: 'docket.result/1', requestId: 'w-1', kind: 'disposition' }),
    ];
    const batches = bodies.map((b, i) => [{ Body: b, ReceiptHandle: `h-${i}` }]);
    // At-least-once delivery: the genuine result twice in one receive prints once.
    batches.push([m.body, m.body].map((b, i) => ({ Body: b, ReceiptHandle: `g-${i}` })));
    const sqs = {
      send: async (c: { constructor: { name: string } }) =>
        c.constructor.name === 'ReceiveMessageCommand' ? { Messages: batches.shift() ?? [] } : {},
    } as unknown as SQSClient;
    const io = memoryIo();
    const out = await waitForResults({
      sqs,
      queueUrl: 'q',
      sent: new Map([['w-1', sent(text)]]),
      policy,
      store: new MemoryLedgerStore(),
      deadline: Date.now() + 20_000,
      json: true,
      io,
    });
    expect(out).toEqual({ missing: [], interrupted: false });
    const lines = io.out().trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { requestId: string; disposition: { outcomeId: string }; entry: string };
    expect([line.requestId, line.disposition.outcomeId, line.entry]).toEqual(['w-1', d.outcomeId, entryOf(m).body]);
    expect(d.outcomeId).not.toBe('reject');
    expect(io.err()).toMatch(/refused a result notification: signature-mismatch: .*\(request w-1\)/);
    expect(io.err()).toMatch(/refused a result notification: entry-not-awaited: it records request w-other/);
    expect(io.err()).toMatch(/refused a result notification: unsupported-format: .*no signed entry/);
    expect(batches).toHaveLength(0); // it read past every forgery to the genuine result
  });
});
